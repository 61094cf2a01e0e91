package dev.tiprobe.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON reader for tiprobe's results files: objects become maps, arrays lists, numbers
 * Long or Double. Malformed or truncated text fails with the offset where reading stopped;
 * nesting is bounded, so no input can exhaust the stack.
 */
final class Json {
    static final int MAX_DEPTH = 64;

    /** Malformed JSON, with the offset of the problem. */
    static final class MalformedJsonException extends Exception {
        private static final long serialVersionUID = 1L;

        MalformedJsonException(String message, int offset) {
            super(message + " at offset " + offset);
        }
    }

    private final String s;
    private int i;

    private Json(String s) {
        this.s = s;
    }

    static Object parse(String text) throws MalformedJsonException {
        Json p = new Json(text);
        Object v = p.value(0);
        p.space();
        if (p.i != text.length()) throw new MalformedJsonException("text after the end", p.i);
        return v;
    }

    private void space() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
    }

    private char peek() throws MalformedJsonException {
        if (i >= s.length()) throw new MalformedJsonException("unexpected end (truncated?)", i);
        return s.charAt(i);
    }

    private void expect(char c) throws MalformedJsonException {
        if (peek() != c) throw new MalformedJsonException("expected '" + c + "' but found '" + s.charAt(i) + "'", i);
        i++;
    }

    private Object value(int depth) throws MalformedJsonException {
        if (depth > MAX_DEPTH) throw new MalformedJsonException("nested too deeply", i);
        space();
        char c = peek();
        if (c == '{') return object(depth);
        if (c == '[') return array(depth);
        if (c == '"') return string();
        for (String literal : new String[] {"true", "false", "null"}) {
            if (s.startsWith(literal, i)) {
                i += literal.length();
                return literal.equals("null") ? null : Boolean.valueOf(literal);
            }
        }
        return number();
    }

    private Map<String, Object> object(int depth) throws MalformedJsonException {
        Map<String, Object> m = new LinkedHashMap<>();
        i++;
        space();
        if (peek() == '}') {
            i++;
            return m;
        }
        while (true) {
            space();
            if (peek() != '"') throw new MalformedJsonException("expected a member name", i);
            String key = string();
            space();
            expect(':');
            m.put(key, value(depth + 1));
            space();
            if (peek() == ',') {
                i++;
                continue;
            }
            expect('}');
            return m;
        }
    }

    private List<Object> array(int depth) throws MalformedJsonException {
        List<Object> l = new ArrayList<>();
        i++;
        space();
        if (peek() == ']') {
            i++;
            return l;
        }
        while (true) {
            l.add(value(depth + 1));
            space();
            if (peek() == ',') {
                i++;
                continue;
            }
            expect(']');
            return l;
        }
    }

    private String string() throws MalformedJsonException {
        StringBuilder b = new StringBuilder();
        i++;
        while (peek() != '"') {
            char ch = s.charAt(i++);
            if (ch != '\\') {
                b.append(ch);
                continue;
            }
            char e = peek();
            i++;
            switch (e) {
                case 'n' -> b.append('\n');
                case 't' -> b.append('\t');
                case 'r' -> b.append('\r');
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'u' -> {
                    if (i + 4 > s.length()) throw new MalformedJsonException("unexpected end (truncated?)", i);
                    try {
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    } catch (NumberFormatException x) {
                        throw new MalformedJsonException("bad \\u escape", i);
                    }
                    i += 4;
                }
                case '"', '\\', '/' -> b.append(e);
                default -> throw new MalformedJsonException("bad escape '\\" + e + "'", i - 1);
            }
        }
        i++;
        return b.toString();
    }

    private Object number() throws MalformedJsonException {
        int start = i;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
        String n = s.substring(start, i);
        if (n.isEmpty()) throw new MalformedJsonException("unexpected '" + s.charAt(start) + "'", start);
        try {
            return n.contains(".") || n.contains("e") || n.contains("E") ? (Object) Double.parseDouble(n) : (Object) Long.parseLong(n);
        } catch (NumberFormatException e) {
            throw new MalformedJsonException("bad number '" + n + "'", start);
        }
    }
}
