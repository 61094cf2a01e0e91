package dev.tiprobe.report;

/** JSON string literals, for every JSON tiprobe writes. */
public final class JsonText {
    private JsonText() {}

    /** Appends {@code s} as a JSON string literal (null as null). */
    public static StringBuilder quote(StringBuilder b, String s) {
        if (s == null) return b.append("null");
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"');
    }

    public static String quote(String s) {
        return quote(new StringBuilder(s == null ? 4 : s.length() + 2), s).toString();
    }
}
