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
            case CapturedValue.Char c -> "'" + JsonText.escaped(String.valueOf(c.value()), '\'') + "'";
            case CapturedValue.Str s -> '"' + JsonText.escaped(s.value(), '"') + '"';
            case CapturedValue.Text t -> '"' + JsonText.escaped(t.prefix(), '"') + "\"... (" + t.length() + " chars)";
            case CapturedValue.EnumConstant e -> simple(e.type()) + "." + e.name();
            case CapturedValue.Array a -> {
                StringBuilder b = new StringBuilder(simple(a.componentType())).append('[').append(a.length()).append("] {");
                for (int i = 0; i < a.first().size(); i++) b.append(i > 0 ? ", " : "").append(of(a.first().get(i)));
                if (a.length() > a.first().size()) b.append(a.first().isEmpty() ? "..." : ", ...");
                yield b.append('}').toString();
            }
            case CapturedValue.Obj o when o.fields() != null -> {
                StringBuilder b = new StringBuilder(simple(o.type())).append('{');
                for (int i = 0; i < o.fields().size(); i++) {
                    CapturedValue.Field f = o.fields().get(i);
                    b.append(i > 0 ? ", " : "").append(f.name()).append('=').append(of(f.value()));
                }
                if (o.moreFields() > 0) b.append(o.fields().isEmpty() ? "" : ", ").append("… ").append(o.moreFields()).append(" more");
                yield b.append('}').toString();
            }
            case CapturedValue.Obj o -> simple(o.type()) + "@" + Integer.toHexString(o.identityHash())
                    + (o.text() == null ? "" : " \"" + JsonText.escaped(o.text(), '"') + '"');
            case CapturedValue.Seen seen -> simple(seen.type()) + "@" + Integer.toHexString(seen.identityHash()) + " (seen above)";
            case CapturedValue.Sized sized -> simple(sized.type()) + "(" + sized.size() + ")";
            case CapturedValue.JdkValue jdk -> jdk.text();
            case CapturedValue.Unreadable u -> "?(" + u.why() + ")";
            case CapturedValue.Thrown t -> simple(t.type()) + (t.message() == null ? "" : ": " + JsonText.escaped(t.message(), '\n'));  // unquoted: no quote to escape
            case CapturedValue.NotCaptured n -> "(not captured: probe code was running on this thread)";
            case CapturedValue.Shown s -> s.text();
        };
    }

    private static String simple(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
