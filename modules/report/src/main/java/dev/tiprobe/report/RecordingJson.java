package dev.tiprobe.report;

import java.io.IOException;
import java.io.Writer;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything in a recording as JSON, with names: session facts, methods, threads, samples (frames
 * leaf first), class events, traced methods' statistics and traced calls.
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
        b.append(",\n  \"methods\": ");
        names(b, r.methods());
        b.append(",\n  \"threads\": ");
        names(b, r.threads());
        b.append(",\n  \"samples\": [");
        String sep = "\n    ";
        for (Recording.Sample s : r.samples()) {
            b.append(sep).append("{\"epochNanos\": ").append(s.epochNanos()).append(", \"thread\": ").append(s.threadId())
                    .append(", \"state\": ").append(s.state()).append(", \"cpuNanos\": ").append(s.cpuNanos()).append(", \"frames\": [");
            numbers(b, s.frames());
            b.append("], \"lines\": [");
            numbers(b, s.lines());
            b.append("]}");
            sep = ",\n    ";
            spill(b, out);
        }
        b.append("\n  ],\n  \"classEvents\": [");
        sep = "\n    ";
        for (Recording.ClassEvent e : r.classEvents()) {
            b.append(sep).append("{\"epochNanos\": ").append(e.epochNanos()).append(", \"event\": \"")
                    .append(e.load() ? "load" : "unload").append("\", \"class\": ");
            JsonText.quote(b, e.className());
            b.append('}');
            sep = ",\n    ";
        }
        b.append("\n  ],\n  \"stats\": [");
        sep = "\n    ";
        for (Recording.MethodStats m : new TreeMap<>(r.stats()).values()) {
            b.append(sep).append("{\"method\": ").append(m.methodId()).append(", \"name\": ");
            JsonText.quote(b, r.methodName(m.methodId()));
            b.append(", \"calls\": ").append(m.calls());
            if (m.timed()) {
                b.append(", \"totalNanos\": ").append(m.totalNanos()).append(", \"minNanos\": ").append(m.minNanos())
                        .append(", \"maxNanos\": ").append(m.maxNanos());
            }
            b.append('}');
            sep = ",\n    ";
        }
        b.append("\n  ],\n  \"calls\": [");
        sep = "\n    ";
        for (Recording.Call c : r.calls()) {
            b.append(sep).append("{\"startEpochNanos\": ").append(c.startEpochNanos()).append(", \"thread\": ")
                    .append(c.threadId()).append(", \"method\": ").append(c.methodId()).append(", \"name\": ");
            JsonText.quote(b, r.methodName(c.methodId()));
            b.append(", \"depth\": ").append(c.depth()).append(", \"durationNanos\": ").append(c.durationNanos())
                    .append(", \"args\": [");
            for (int i = 0; i < c.argValues().size(); i++) {
                b.append(i > 0 ? ", " : "").append("{\"name\": ");
                JsonText.quote(b, c.argNames().get(i));
                b.append(", \"value\": ");
                JsonText.quote(b, c.argValues().get(i));
                b.append('}');
            }
            b.append("], ").append(c.threw() ? "\"thrown\": " : "\"returned\": ");
            JsonText.quote(b, c.result());
            b.append('}');
            sep = ",\n    ";
            spill(b, out);
        }
        b.append("\n  ]\n}\n");
        out.write(b.toString());
        out.flush();
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
