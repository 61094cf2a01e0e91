package dev.tiprobe.agent;

import dev.tiprobe.probe.Captured;
import dev.tiprobe.report.JsonText;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

/** Writes {@link Results} as JSON: one object with the methods, the traced calls and what was skipped. */
final class ResultsJson {
    private final Writer out;

    private ResultsJson(Writer out) {
        this.out = out;
    }

    static void write(Results r, Writer out) throws IOException {
        new ResultsJson(out).results(r);
        out.flush();
    }

    private void results(Results r) throws IOException {
        out.write("{\n  \"tool\": \"tiprobe\",\n  \"mode\": ");
        string(r.mode().name().toLowerCase());
        out.write(",\n  \"filter\": ");
        string(r.filter());
        out.write(",\n  \"classesInstrumented\": " + r.classesInstrumented());
        out.write(",\n  \"droppedCalls\": " + r.droppedCalls());
        out.write(",\n  \"probeFailures\": " + r.probeFailures());
        out.write(",\n  \"methods\": [");
        String sep = "\n    ";
        for (Results.MethodResult m : r.methods()) {
            out.write(sep);
            sep = ",\n    ";
            out.write("{\"name\": ");
            string(m.name());
            out.write(", \"class\": ");
            string(m.className());
            out.write(", \"method\": ");
            string(m.method());
            out.write(", \"descriptor\": ");
            string(m.descriptor());
            out.write(", \"calls\": " + m.calls());
            if (m.time() != null) time(m.time(), m.calls());
            out.write("}");
        }
        out.write("\n  ],\n  \"calls\": [");
        sep = "\n    ";
        for (Results.TracedCall c : r.calls()) {
            out.write(sep);
            sep = ",\n    ";
            call(c);
        }
        out.write("\n  ],\n  \"skipped\": [");
        sep = "\n    ";
        for (Results.Skipped s : r.skipped()) {
            out.write(sep);
            sep = ",\n    ";
            out.write("{\"class\": ");
            string(s.binaryName());
            out.write(", \"method\": ");
            string(s.method());
            out.write(", \"descriptor\": ");
            string(s.descriptor());
            out.write(", \"reason\": ");
            string(s.reason());
            out.write("}");
        }
        out.write("\n  ],\n  \"classFailures\": [");
        sep = "\n    ";
        for (String f : r.classFailures()) {
            out.write(sep);
            sep = ",\n    ";
            string(f);
        }
        out.write("\n  ],\n  \"overheadBudget\": " + r.overheadBudget() + ",\n  \"removedForOverhead\": [");
        sep = "\n    ";
        for (Results.Removed m : r.removed()) {
            out.write(sep);
            sep = ",\n    ";
            out.write("{\"method\": ");
            string(m.method());
            out.write(", \"callsPerSecond\": " + m.callsPerSecond() + "}");
        }
        out.write("\n  ]\n}\n");
    }

    private void time(Results.TimeStats t, long calls) throws IOException {
        out.write(", \"totalNanos\": " + t.totalNanos() + ", \"minNanos\": " + t.minNanos() + ", \"maxNanos\": "
                + t.maxNanos() + ", \"meanNanos\": " + (calls == 0 ? 0 : t.totalNanos() / calls));
        out.write(", \"histogram\": [");
        String sep = "";
        long[] h = t.histogram();
        for (int b = 0; b < h.length; b++) {
            if (h[b] == 0) continue;
            out.write(sep + "{\"belowNanos\": " + (1L << (b + 1)) + ", \"count\": " + h[b] + "}");
            sep = ", ";
        }
        out.write("]");
    }

    private void call(Results.TracedCall c) throws IOException {
        out.write("{\"method\": ");
        string(c.method());
        out.write(", \"thread\": ");
        string(c.threadName());
        out.write(", \"threadId\": " + c.threadId() + ", \"depth\": " + c.depth() + ", \"startEpochNanos\": "
                + c.startEpochNanos() + ", \"durationNanos\": " + c.durationNanos());
        out.write(", \"args\": [");
        List<Object> args = c.args();
        for (int i = 0; i < args.size(); i++) {
            if (i > 0) out.write(", ");
            List<String> names = c.parameterNames();
            String name = names != null && i < names.size() && names.get(i) != null ? names.get(i) : "arg" + i;
            out.write("{\"name\": ");
            string(name);
            out.write(", \"value\": ");
            value(args.get(i));
            out.write("}");
        }
        out.write("]");
        out.write(c.threw() ? ", \"thrown\": " : ", \"returned\": ");
        value(c.result());
        out.write("}");
    }

    private void value(Object v) throws IOException {
        switch (v) {
            case null -> out.write("null");
            case Boolean b -> out.write(b.toString());
            case Double d when d.isNaN() || d.isInfinite() -> string(d.toString());
            case Float f when f.isNaN() || f.isInfinite() -> string(f.toString());
            case Number n -> out.write(n.toString());
            case Character ch -> string(ch.toString());
            case String s -> string(s);
            case Captured.Text t -> {
                out.write("{\"text\": ");
                string(t.prefix());
                out.write(", \"length\": " + t.length() + ", \"truncated\": true}");
            }
            case Captured.EnumValue e -> {
                out.write("{\"enum\": ");
                string(e.type());
                out.write(", \"name\": ");
                string(e.name());
                out.write("}");
            }
            case Captured.ArrayValue a -> {
                out.write("{\"array\": ");
                string(a.componentType());
                out.write(", \"length\": " + a.length() + ", \"first\": [");
                for (int i = 0; i < a.first().length; i++) {
                    if (i > 0) out.write(", ");
                    value(a.first()[i]);
                }
                out.write("]}");
            }
            case Captured.ObjectValue o -> {
                out.write("{\"object\": ");
                string(o.type());
                out.write(", \"identityHash\": ");
                string(Integer.toHexString(o.identityHash()));
                if (o.text() != null) {
                    out.write(", \"toString\": ");
                    string(o.text());
                }
                out.write("}");
            }
            case Captured.Thrown t -> {
                out.write("{\"type\": ");
                string(t.type());
                out.write(", \"message\": ");
                string(t.message());
                out.write("}");
            }
            case Captured.Skipped s -> out.write("{\"skipped\": \"probe code was running on this thread\"}");
            default -> string(v.getClass().getName());
        }
    }

    private void string(String s) throws IOException {
        out.write(JsonText.quote(s));
    }
}
