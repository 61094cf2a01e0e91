package dev.tiprobe.agent;

import dev.tiprobe.probe.Captured;

/**
 * Captured argument and return values as the recording keeps them, as text a person reads:
 * {@code 42}, {@code "abc"}, {@code Color.RED}, {@code int[3] {1, 2, 3}}, {@code Order@1b6d3586}.
 * The JSON results keep the structure ({@link ResultsJson}); a recording keeps this text.
 */
final class CapturedText {
    private CapturedText() {}

    static String of(Object v) {
        return switch (v) {
            case null -> "null";
            case String s -> '"' + s + '"';
            case Character c -> "'" + c + "'";
            case Captured.Text t -> '"' + t.prefix() + "\"... (" + t.length() + " chars)";
            case Captured.EnumValue e -> simple(e.type()) + "." + e.name();
            case Captured.ArrayValue a -> {
                StringBuilder b = new StringBuilder(simple(a.componentType())).append('[').append(a.length()).append("] {");
                for (int i = 0; i < a.first().length; i++) b.append(i > 0 ? ", " : "").append(of(a.first()[i]));
                if (a.length() > a.first().length) b.append(a.first().length > 0 ? ", ..." : "...");
                yield b.append('}').toString();
            }
            case Captured.ObjectValue o -> simple(o.type()) + "@" + Integer.toHexString(o.identityHash())
                    + (o.text() == null ? "" : " \"" + o.text() + '"');
            case Captured.Thrown t -> simple(t.type()) + (t.message() == null ? "" : ": " + t.message());
            case Captured.Skipped s -> "(not captured: probe code was running on this thread)";
            default -> String.valueOf(v);  // boxed primitives
        };
    }

    private static String simple(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
