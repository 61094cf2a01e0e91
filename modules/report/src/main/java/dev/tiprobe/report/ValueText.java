package dev.tiprobe.report;

import dev.tiprobe.recording.CapturedValue;

/**
 * Captured argument and return values as a person reads them: {@code 42}, {@code "abc"},
 * {@code Color.RED}, {@code int[3] {1, 2, 3}}, {@code Order@1b6d3586}. The JSON export keeps the
 * structure ({@link RecordingJson}); the text report and the page show this.
 */
public final class ValueText {
    private ValueText() {}

    public static String of(CapturedValue v) {
        return switch (v) {
            case CapturedValue.None n -> "";
            case CapturedValue.Null n -> "null";
            case CapturedValue.Bool b -> Boolean.toString(b.value());
            case CapturedValue.Int i -> Long.toString(i.value());
            case CapturedValue.Float32 f -> Float.toString(f.value());
            case CapturedValue.Float64 d -> Double.toString(d.value());
            case CapturedValue.Char c -> "'" + c.value() + "'";
            case CapturedValue.Str s -> '"' + s.value() + '"';
            case CapturedValue.Text t -> '"' + t.prefix() + "\"... (" + t.length() + " chars)";
            case CapturedValue.EnumConstant e -> simple(e.type()) + "." + e.name();
            case CapturedValue.Array a -> {
                StringBuilder b = new StringBuilder(simple(a.componentType())).append('[').append(a.length()).append("] {");
                for (int i = 0; i < a.first().size(); i++) b.append(i > 0 ? ", " : "").append(of(a.first().get(i)));
                if (a.length() > a.first().size()) b.append(a.first().isEmpty() ? "..." : ", ...");
                yield b.append('}').toString();
            }
            case CapturedValue.Obj o -> simple(o.type()) + "@" + Integer.toHexString(o.identityHash())
                    + (o.text() == null ? "" : " \"" + o.text() + '"');
            case CapturedValue.Thrown t -> simple(t.type()) + (t.message() == null ? "" : ": " + t.message());
            case CapturedValue.NotCaptured n -> "(not captured: probe code was running on this thread)";
            case CapturedValue.Shown s -> s.text();
        };
    }

    private static String simple(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
