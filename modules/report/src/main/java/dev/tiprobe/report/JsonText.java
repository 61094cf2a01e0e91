package dev.tiprobe.report;

/** JSON string literals, for every JSON tiprobe writes; the text report's values are escaped alike. */
public final class JsonText {
    private JsonText() {}

    /** Appends {@code s} as a JSON string literal (null as null). */
    public static StringBuilder quote(StringBuilder b, String s) {
        return s == null ? b.append("null") : b.append('"').append(escaped(s, '"')).append('"');
    }

    public static String quote(String s) {
        return quote(new StringBuilder(s == null ? 4 : s.length() + 2), s).toString();
    }

    /**
     * Text as a string literal holds it between {@code quote}s, the same in JSON and in Java: a
     * quote, a backslash, a line break or another control character escaped (in a captured string
     * it would otherwise end the value early to the eye, or the line of a one-call-per-line
     * report). Half a surrogate pair (a captured prefix may cut one) is written as its code, as
     * UTF-8 cannot hold it. Text with nothing to escape is returned as it is.
     */
    static String escaped(String text, char quote) {
        StringBuilder b = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            String e = switch (c) {
                case '\\' -> "\\\\";
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                case '\t' -> "\\t";
                default -> c == quote ? "\\" + c
                        : Character.isISOControl(c) || Character.isSurrogate(c) && !paired(text, i) ? String.format("\\u%04x", (int) c)
                        : null;
            };
            if (e != null && b == null) b = new StringBuilder(text.length() + 8).append(text, 0, i);
            if (b != null) {
                if (e != null) b.append(e);
                else b.append(c);
            }
        }
        return b == null ? text : b.toString();
    }

    /** Whether the surrogate at {@code i} is half of a pair. */
    private static boolean paired(String text, int i) {
        char c = text.charAt(i);
        return Character.isHighSurrogate(c) ? i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))
                : i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
    }
}
