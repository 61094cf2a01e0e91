package dev.tiprobe.report;

import dev.tiprobe.recording.Allocation;
import dev.tiprobe.recording.Call;
import dev.tiprobe.recording.Callee;
import dev.tiprobe.recording.CapturedValue;
import dev.tiprobe.recording.ClassEvent;
import dev.tiprobe.recording.Deadlock;
import dev.tiprobe.recording.LockWait;
import dev.tiprobe.recording.MethodStats;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.Removed;
import dev.tiprobe.recording.Sample;
import dev.tiprobe.recording.Signature;
import dev.tiprobe.recording.Skipped;

import java.io.IOException;
import java.io.Writer;
import java.util.Map;
import java.util.TreeMap;

/**
 * A recording as JSON, with names: the session's facts, then what tracing saw (the methods with
 * their calls, times and histograms, the traced calls with their values, what was skipped, the
 * classes left unchanged and the probes removed), then the samples and class events. This is the
 * JSON {@code -f x.json} gives; the agent itself writes only the recording.
 */
public final class RecordingJson {
    private RecordingJson() {}

    public static void write(Recording r, Writer out) throws IOException {
        StringBuilder b = new StringBuilder(1 << 16);
        b.append("{\n  \"tool\": \"tiprobe\",\n  \"kind\": \"recording\",\n  \"chunks\": ").append(r.chunks())
                .append(",\n  \"startEpochNanos\": ").append(r.startEpochNanos())
                .append(",\n  \"endEpochNanos\": ").append(r.endEpochNanos())
                .append(",\n  \"damage\": ");
        JsonText.quote(b, r.damage());
        b.append(",\n  \"info\": ");
        names(b, r.info());
        b.append(",\n  \"mode\": ");
        JsonText.quote(b, r.info().get(RecordingFormat.INFO_TRACE_MODE));
        b.append(",\n  \"filter\": ");
        JsonText.quote(b, r.info().get(RecordingFormat.INFO_FILTER));
        b.append(",\n  \"classesInstrumented\": ").append(r.infoNumber(RecordingFormat.INFO_CLASSES_INSTRUMENTED))
                .append(",\n  \"instrumentingNanos\": ").append(r.infoNumber(RecordingFormat.INFO_INSTRUMENTING_NANOS))
                .append(",\n  \"droppedCalls\": ").append(r.infoNumber(RecordingFormat.INFO_DROPPED_CALLS))
                .append(",\n  \"probeFailures\": ").append(r.infoNumber(RecordingFormat.INFO_PROBE_FAILURES));
        methods(r, b);
        calls(r, b, out);
        tracingAccount(r, b);
        b.append(",\n  \"methodNames\": ");
        names(b, r.methods());
        b.append(",\n  \"threads\": ");
        names(b, r.threads());
        b.append(",\n  \"samples\": [");
        String sep = "\n    ";
        for (Sample s : r.samples()) {
            b.append(sep).append("{\"epochNanos\": ").append(s.epochNanos()).append(", \"thread\": ").append(s.threadId())
                    .append(", \"state\": ").append(s.state()).append(", \"cpuNanos\": ").append(s.cpuNanos()).append(", \"ticks\": ").append(s.ticks()).append(", \"frames\": [");
            numbers(b, s.frames());
            b.append("], \"lines\": [");
            numbers(b, s.lines());
            b.append("]}");
            sep = ",\n    ";
            spill(b, out);
        }
        b.append("\n  ]");
        events(r, b, out);
        b.append(",\n  \"classEvents\": [");
        sep = "\n    ";
        for (ClassEvent e : r.classEvents()) {
            b.append(sep).append("{\"epochNanos\": ").append(e.epochNanos()).append(", \"event\": \"")
                    .append(e.load() ? "load" : "unload").append("\", \"class\": ");
            JsonText.quote(b, e.className());
            b.append('}');
            sep = ",\n    ";
        }
        b.append("\n  ]\n}\n");
        out.write(b.toString());
        out.flush();
    }

    /**
     * Allocation samples (with the sampling interval in force and the bytes each stands for, and
     * {@code live}: not collected when the recording ended, for objects tracked), lock waits (their
     * kind, with the holder's thread and frames when known), the deadlocks found, and the class
     * names their {@code type} ids stand for.
     */
    private static void events(Recording r, StringBuilder b, Writer out) throws IOException {
        Recording.Events e = r.events();
        b.append(",\n  \"types\": ");
        names(b, e.types());
        b.append(",\n  \"allocations\": [");
        String sep = "\n    ";
        for (Allocation a : e.allocations()) {
            b.append(sep).append("{\"epochNanos\": ").append(a.epochNanos()).append(", \"thread\": ").append(a.threadId())
                    .append(", \"type\": ").append(a.typeId()).append(", \"size\": ").append(a.size())
                    .append(", \"intervalBytes\": ").append(a.intervalBytes()).append(", \"estimatedBytes\": ").append(a.estimatedBytes());
            if (a.tag() != 0) b.append(", \"live\": ").append(!e.freed().contains(a.tag()));
            b.append(", \"frames\": [");
            numbers(b, a.frames());
            b.append("], \"lines\": [");
            numbers(b, a.lines());
            b.append("]}");
            sep = ",\n    ";
            spill(b, out);
        }
        b.append("\n  ],\n  \"locks\": [");
        sep = "\n    ";
        for (LockWait w : e.locks()) {
            b.append(sep).append("{\"epochNanos\": ").append(w.epochNanos()).append(", \"thread\": ").append(w.threadId())
                    .append(", \"kind\": \"").append(kindName(w.kind()))
                    .append("\", \"type\": ").append(w.typeId()).append(", \"waitNanos\": ").append(w.waitNanos())
                    .append(", \"frames\": [");
            numbers(b, w.frames());
            b.append("]");
            if (w.ownerThreadId() != 0) {
                b.append(", \"owner\": ").append(w.ownerThreadId()).append(", \"ownerFrames\": [");
                numbers(b, w.ownerFrames());
                b.append("]");
            }
            b.append('}');
            sep = ",\n    ";
            spill(b, out);
        }
        b.append("\n  ],\n  \"deadlocks\": [");
        sep = "\n    ";
        for (Deadlock d : e.deadlocks()) {
            b.append(sep).append("{\"epochNanos\": ").append(d.epochNanos()).append(", \"threads\": [");
            String threadSep = "";
            for (Deadlock.Waiter t : d.threads()) {
                b.append(threadSep).append("{\"thread\": ").append(t.threadId()).append(", \"waitsFor\": ");
                JsonText.quote(b, t.waitsFor());
                b.append(", \"heldBy\": ").append(t.ownerId()).append(", \"holds\": [");
                for (int i = 0; i < t.held().size(); i++) {
                    if (i > 0) b.append(", ");
                    JsonText.quote(b, t.held().get(i));
                }
                b.append("], \"frames\": [");
                numbers(b, t.stack().frames());
                b.append("]}");
                threadSep = ", ";
            }
            b.append("]}");
            sep = ",\n    ";
        }
        b.append("\n  ]");
    }

    /** How the JSON names a wait's kind: {@code contended}, {@code wait}, {@code parked lock} or {@code parked wait}. */
    private static String kindName(byte kind) {
        return switch (kind) {
            case RecordingFormat.LOCK_CONTENDED -> "contended";
            case RecordingFormat.LOCK_PARKED -> "parked lock";
            case RecordingFormat.WAIT_PARKED -> "parked wait";
            default -> "wait";
        };
    }

    /** The traced methods in id order: name, signature, calls, and in time mode times and histogram. */
    private static void methods(Recording r, StringBuilder b) {
        b.append(",\n  \"methods\": [");
        String sep = "\n    ";
        for (MethodStats m : new TreeMap<>(r.stats()).values()) {
            Signature sig = r.tracing().signatures().get(m.methodId());
            b.append(sep).append("{\"name\": ");
            JsonText.quote(b, r.tracedName(m.methodId()));
            if (sig != null) method(b.append(", "), sig.className(), sig.methodName(), sig.descriptor());
            b.append(", \"calls\": ").append(m.calls());
            if (m.timed()) {
                b.append(", \"totalNanos\": ").append(m.totalNanos()).append(", \"minNanos\": ").append(m.minNanos())
                        .append(", \"maxNanos\": ").append(m.maxNanos()).append(", \"meanNanos\": ")
                        .append(m.calls() == 0 ? 0 : m.totalNanos() / m.calls()).append(", \"histogram\": [");
                String inner = "";
                for (int bucket = 0; bucket < m.histogram().length; bucket++) {
                    if (m.histogram()[bucket] == 0) continue;
                    b.append(inner).append("{\"belowNanos\": ").append(1L << Math.min(62, bucket + 1)).append(", \"count\": ")
                            .append(m.histogram()[bucket]).append('}');
                    inner = ", ";
                }
                b.append(']');
            }
            b.append('}');
            sep = ",\n    ";
        }
        b.append("\n  ]");
    }

    /** The traced calls in the order they started, their values with their structure. */
    private static void calls(Recording r, StringBuilder b, Writer out) throws IOException {
        b.append(",\n  \"calls\": [");
        String sep = "\n    ";
        for (Call c : TracedText.callsByStart(r)) {
            b.append(sep);
            call(r, c, b);
            sep = ",\n    ";
            spill(b, out);
        }
        b.append("\n  ]");
    }

    /** One traced call as a JSON object: its method, thread, times, arguments, and what it returned or threw. */
    public static void call(Recording r, Call c, StringBuilder b) {
        b.append("{\"method\": ");
        JsonText.quote(b, r.tracedName(c.methodId()));
        b.append(", \"thread\": ");
        JsonText.quote(b, r.threadName(c.threadId()));
        b.append(", \"threadId\": ").append(c.threadId()).append(", \"depth\": ").append(c.depth())
                .append(", \"startEpochNanos\": ").append(c.startEpochNanos()).append(", \"durationNanos\": ")
                .append(c.durationNanos()).append(", \"args\": [");
        for (int i = 0; i < c.argValues().size(); i++) {
            b.append(i > 0 ? ", " : "").append("{\"name\": ");
            JsonText.quote(b, c.argNames().get(i));
            b.append(", \"value\": ");
            value(b, c.argValues().get(i));
            b.append('}');
        }
        b.append(']');
        b.append(c.threw() ? ", \"thrown\": " : ", \"returned\": ");  // null for void
        value(b, c.result());
        if (c.stackFrames().length > 0) {  // a call kept by its duration: where it was called from, itself first
            b.append(", \"frames\": [");
            numbers(b, c.stackFrames());
            b.append("], \"lines\": [");
            numbers(b, c.stackLines());
            b.append("], \"stack\": [");  // the same frames by name, for a reader of this object alone (watch --json)
            for (int i = 0; i < c.stackFrames().length; i++) {
                if (i > 0) b.append(", ");
                int line = i < c.stackLines().length ? c.stackLines()[i] : 0;
                JsonText.quote(b, r.methodName(c.stackFrames()[i]) + (line > 0 ? ":" + line : ""));
            }
            b.append(']');
        }
        if (!c.callees().isEmpty()) {  // its call sites were timed (watch --tree): slowest first
            b.append(", \"callees\": [");
            for (int i = 0; i < c.callees().size(); i++) {
                Callee callee = c.callees().get(i);
                b.append(i > 0 ? ", " : "").append("{\"method\": ");
                JsonText.quote(b, callee.method());
                b.append(", \"calls\": ").append(callee.calls()).append(", \"nanos\": ").append(callee.nanos()).append('}');
            }
            b.append(']');
        }
        b.append('}');
    }

    /** Skipped methods, classes left unchanged, the overhead budget and the probes it removed. */
    private static void tracingAccount(Recording r, StringBuilder b) {
        b.append(",\n  \"skipped\": [");
        String sep = "\n    ";
        for (Skipped s : r.tracing().skipped()) {
            method(b.append(sep).append('{'), s.className(), s.methodName(), s.descriptor());
            b.append(", \"reason\": ");
            JsonText.quote(b, s.reason());
            b.append('}');
            sep = ",\n    ";
        }
        b.append("\n  ],\n  \"classFailures\": [");
        sep = "\n    ";
        for (String f : r.tracing().classFailures()) {
            b.append(sep);
            JsonText.quote(b, f);
            sep = ",\n    ";
        }
        b.append("\n  ],\n  \"overheadBudget\": ").append(r.info().getOrDefault(RecordingFormat.INFO_OVERHEAD_BUDGET, "0"))
                .append(",\n  \"removedForOverhead\": [");
        sep = "\n    ";
        for (Removed m : r.tracing().removed()) {
            b.append(sep).append("{\"method\": ");
            JsonText.quote(b, m.method());
            b.append(", \"callsPerSecond\": ").append(m.callsPerSecond()).append('}');
            sep = ",\n    ";
        }
        b.append("\n  ]");
    }

    /** A captured value with its structure: numbers as numbers, a long string as its prefix and length, ... */
    static void value(StringBuilder b, CapturedValue v) {
        switch (v) {
            case CapturedValue.None n -> b.append("null");
            case CapturedValue.Null n -> b.append("null");
            case CapturedValue.Bool x -> b.append(x.value());
            case CapturedValue.Int i -> b.append(i.value());
            case CapturedValue.Float32 f -> number(b, f.value());
            case CapturedValue.Float64 d -> number(b, d.value());
            case CapturedValue.Char c -> JsonText.quote(b, String.valueOf(c.value()));
            case CapturedValue.Str s -> JsonText.quote(b, s.value());
            case CapturedValue.Text t -> {
                b.append("{\"text\": ");
                JsonText.quote(b, t.prefix());
                b.append(", \"length\": ").append(t.length()).append(", \"truncated\": true}");
            }
            case CapturedValue.EnumConstant e -> strings(b, "enum", e.type(), "name", e.name());
            case CapturedValue.Array a -> {
                b.append("{\"array\": ");
                JsonText.quote(b, a.componentType());
                b.append(", \"length\": ").append(a.length()).append(", \"first\": [");
                for (int i = 0; i < a.first().size(); i++) {
                    if (i > 0) b.append(", ");
                    value(b, a.first().get(i));
                }
                b.append("]}");
            }
            case CapturedValue.Obj o -> {
                b.append("{\"object\": ");
                JsonText.quote(b, o.type());
                b.append(", \"identityHash\": ");
                JsonText.quote(b, Integer.toHexString(o.identityHash()));
                if (o.text() != null) {
                    b.append(", \"toString\": ");
                    JsonText.quote(b, o.text());
                }
                if (o.fields() != null) {
                    b.append(", \"fields\": [");
                    for (int i = 0; i < o.fields().size(); i++) {
                        b.append(i > 0 ? ", " : "").append("{\"name\": ");
                        JsonText.quote(b, o.fields().get(i).name());
                        b.append(", \"value\": ");
                        value(b, o.fields().get(i).value());
                        b.append('}');
                    }
                    b.append("], \"moreFields\": ").append(o.moreFields());
                }
                b.append('}');
            }
            case CapturedValue.Seen seen -> strings(b, "seen", seen.type(), "identityHash", Integer.toHexString(seen.identityHash()));
            case CapturedValue.Sized sized -> {
                b.append("{\"collection\": ");
                JsonText.quote(b, sized.type());
                b.append(", \"size\": ").append(sized.size()).append('}');
            }
            case CapturedValue.JdkValue jdk -> strings(b, "jdk", jdk.type(), "text", jdk.text());
            case CapturedValue.Unreadable u -> {
                b.append("{\"unreadable\": ");
                JsonText.quote(b, u.why());
                b.append('}');
            }
            case CapturedValue.Thrown t -> strings(b, "type", t.type(), "message", t.message());
            case CapturedValue.NotCaptured n -> b.append("{\"skipped\": \"probe code was running on this thread\"}");
            case CapturedValue.Shown s -> JsonText.quote(b, s.text());
        }
    }

    /** {@code "class": ..., "method": ..., "descriptor": ...}: a method as a filter names it. */
    private static void method(StringBuilder b, String className, String methodName, String descriptor) {
        b.append("\"class\": ");
        JsonText.quote(b, className);
        b.append(", \"method\": ");
        JsonText.quote(b, methodName);
        b.append(", \"descriptor\": ");
        JsonText.quote(b, descriptor);
    }

    /** An object of two string members. */
    private static void strings(StringBuilder b, String key1, String value1, String key2, String value2) {
        b.append("{\"").append(key1).append("\": ");
        JsonText.quote(b, value1);
        b.append(", \"").append(key2).append("\": ");
        JsonText.quote(b, value2);
        b.append('}');
    }

    /** JSON has no NaN or infinities: those go as strings. */
    private static void number(StringBuilder b, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) JsonText.quote(b, Double.toString(v));
        else b.append(v);
    }

    /** A JSON object of names by key (ids or info keys), in key order. */
    private static <K extends Comparable<K>> void names(StringBuilder b, Map<K, String> byKey) {
        b.append('{');
        String sep = "\n    ";
        for (Map.Entry<K, String> e : new TreeMap<>(byKey).entrySet()) {
            b.append(sep);
            JsonText.quote(b, e.getKey().toString());
            b.append(": ");
            JsonText.quote(b, e.getValue());
            sep = ",\n    ";
        }
        b.append("\n  }");
    }

    private static void numbers(StringBuilder b, int[] values) {
        for (int i = 0; i < values.length; i++) b.append(i > 0 ? ", " : "").append(values[i]);
    }

    /** Writes out what has gathered once it passes a megabyte: memory stays bounded on big recordings. */
    private static void spill(StringBuilder b, Writer out) throws IOException {
        if (b.length() > 1 << 20) {
            out.write(b.toString());
            b.setLength(0);
        }
    }
}
