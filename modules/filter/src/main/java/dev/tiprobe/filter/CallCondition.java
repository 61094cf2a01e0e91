package dev.tiprobe.filter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Which traced calls to keep: {@code order.qty > 2 && duration > 1ms}, {@code threw
 * IllegalStateException}, {@code thread ~ 'clerk-*'}. Evaluated by tiprobe over the values the
 * probe captured at the call (arguments shown by their fields, the return value, how long it took),
 * never by calling the application's code: no getter, no {@code toString}, no {@code equals} of
 * the application's runs. The command parses a condition before it attaches, so a malformed one is
 * refused with its position; the agent parses the same text again and tests each call as it ends.
 *
 * <pre>
 * condition  := or
 * or         := and ('||' and)*
 * and        := unary ('&amp;&amp;' unary)*
 * unary      := '!' unary | '(' or ')' | 'threw' [className] | operand [op operand]
 * op         := '==' | '!=' | '&lt;' | '&lt;=' | '&gt;' | '&gt;=' | '~' (glob: * and ?)
 * operand    := path | number[unit] | 'string' | "string" | true | false | null
 * path       := name ('.' name | '[' index ']')*
 *               name: a parameter, args (by index), returned, thread, or duration
 * unit       := ns | us | ms | s | m     (a duration; duration is compared with one)
 * </pre>
 *
 * A path that leads nowhere (a field the object does not have, a parameter the method does not
 * have, a value not captured that deep) makes its comparison false, and is told to the caller once
 * per evaluation ({@code onMissing}) so the user learns of a misspelt field. Conditions are equal
 * when written the same.
 */
public final class CallCondition extends Parsed {
    /** What a path names when it leads nowhere. */
    public static final Object MISSING = new Object() {
        @Override
        public String toString() {
            return "missing";
        }
    };

    /**
     * An object as captured: its class's name and its fields by name (each value again of this
     * model: null, Boolean, Long, Double, String, Fields or Elements).
     */
    public record Fields(String type, Map<String, Object> byName) {}

    /** An array as captured: its length, and its first elements (as many as were captured). */
    public record Elements(long length, List<Object> first) {}

    /** What a condition reads of one call, in the model {@link Fields} describes. */
    public interface Facts {
        /** The argument of the parameter {@code name}, or {@link #MISSING} when the method has none of that name. */
        Object argument(String name);

        /** The argument at {@code index} (from 0), or {@link #MISSING}. */
        Object argument(int index);

        /** The value returned (null for void), or {@link #MISSING} when the call threw. */
        Object returned();

        /** The binary name of the class of what the call threw, or null when it returned. */
        String thrown();

        long durationNanos();

        String thread();
    }

    /** A condition that does not parse: where, and why. */
    public static final class ConditionSyntaxException extends SyntaxException {
        private static final long serialVersionUID = 1L;

        ConditionSyntaxException(String message, String text, int position) {
            super(message, text, position);
        }
    }

    private final Node root;

    private CallCondition(String text, Node root) {
        super(text);
        this.root = root;
    }

    /** @throws ConditionSyntaxException for text that is not a condition, with the position */
    public static CallCondition parse(String text) {
        Objects.requireNonNull(text, "text");
        Parser p = new Parser(text);
        Node root = p.or();
        if (!p.atEnd()) throw p.error("unexpected '" + p.rest() + "'");
        return new CallCondition(text.strip(), root);
    }

    /** Whether the call matches; each path that leads nowhere is told to {@code onMissing}. */
    public boolean test(Facts call, Consumer<String> onMissing) {
        return root.test(call, onMissing);
    }

    // ------------------------------------------------------------------------- the tree

    private interface Node {
        boolean test(Facts call, Consumer<String> onMissing);
    }

    private record Or(Node left, Node right) implements Node {
        public boolean test(Facts call, Consumer<String> onMissing) {
            return left.test(call, onMissing) || right.test(call, onMissing);
        }
    }

    private record And(Node left, Node right) implements Node {
        public boolean test(Facts call, Consumer<String> onMissing) {
            return left.test(call, onMissing) && right.test(call, onMissing);
        }
    }

    private record Not(Node inner) implements Node {
        public boolean test(Facts call, Consumer<String> onMissing) {
            return !inner.test(call, onMissing);
        }
    }

    /** {@code threw}, or {@code threw Name}: Name is the exception's simple or binary name. */
    private record Threw(String type) implements Node {
        public boolean test(Facts call, Consumer<String> onMissing) {
            String thrown = call.thrown();
            if (thrown == null) return false;
            if (type == null || thrown.equals(type)) return true;
            int cut = Math.max(thrown.lastIndexOf('.'), thrown.lastIndexOf('$'));
            return thrown.substring(cut + 1).equals(type);
        }
    }

    /** A lone operand: true where it is the boolean true. */
    private record Truth(Operand value) implements Node {
        public boolean test(Facts call, Consumer<String> onMissing) {
            return Boolean.TRUE.equals(value.value(call, onMissing));
        }
    }

    /** {@code pattern}: for {@code ~} with a string written in the condition, its glob's pattern, made once at parse time. */
    private record Compare(Operand left, String op, Operand right, Pattern pattern) implements Node {
        public boolean test(Facts call, Consumer<String> onMissing) {
            Object a = left.value(call, onMissing);
            Object b = right.value(call, onMissing);
            if (a == MISSING || b == MISSING) return false;
            return switch (op) {
                case "==" -> same(a, b);
                case "!=" -> !same(a, b);
                case "~" -> a instanceof String s && b instanceof String g && (pattern != null ? pattern : glob(g)).matcher(s).matches();
                default -> {
                    Integer order = order(a, b);
                    yield order != null && switch (op) {
                        case "<" -> order < 0;
                        case "<=" -> order <= 0;
                        case ">" -> order > 0;
                        default -> order >= 0;
                    };
                }
            };
        }
    }

    private static boolean same(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) return compare(x, y) == 0;
        return Objects.equals(a, b);
    }

    /** Numbers by value, strings in order; null where the two cannot be ordered. */
    private static Integer order(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) return compare(x, y);
        if (a instanceof String x && b instanceof String y) return Integer.signum(x.compareTo(y));
        return null;
    }

    private static int compare(Number x, Number y) {
        if (x instanceof Long l && y instanceof Long m) return Long.compare(l, m);
        return Double.compare(x.doubleValue(), y.doubleValue());
    }

    private static Pattern glob(String glob) {
        StringBuilder regex = new StringBuilder();
        for (char c : glob.toCharArray()) {
            if (c == '*') regex.append(".*");
            else if (c == '?') regex.append('.');
            else regex.append(Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }

    private interface Operand {
        Object value(Facts call, Consumer<String> onMissing);
    }

    /** A value written in the condition; {@code duration}: a number with a unit of time, in nanoseconds. */
    private record Literal(Object value, boolean duration) implements Operand {
        Literal(Object value) {
            this(value, false);
        }

        public Object value(Facts call, Consumer<String> onMissing) {
            return value;
        }
    }

    /** A path from a root ({@code args}, {@code returned}, a parameter, ...) through fields and indexes. */
    private record Path(String text, String root, List<Object> steps) implements Operand {
        public Object value(Facts call, Consumer<String> onMissing) {
            Object v;
            int first = 0;
            switch (root) {
                case "duration" -> v = call.durationNanos();
                case "thread" -> v = call.thread();
                case "returned" -> v = call.returned();
                case "args" -> {
                    if (steps.isEmpty() || !(steps.getFirst() instanceof Integer i)) {
                        onMissing.accept(text + ": args needs an index, e.g. args[0]");
                        return MISSING;
                    }
                    v = call.argument(i);
                    first = 1;
                }
                default -> v = call.argument(root);
            }
            if (v == MISSING) {
                onMissing.accept(text + ": " + (root.equals("returned") ? "the call threw" : "no parameter " + root));
                return MISSING;
            }
            for (int k = first; k < steps.size(); k++) {
                Object step = steps.get(k);
                Object next = step(v, step);
                if (next == MISSING) {
                    onMissing.accept(text + ": " + nowhere(v, step));
                    return MISSING;
                }
                v = next;
            }
            return v;
        }

        private static Object step(Object v, Object step) {
            if (step instanceof String field) {
                if (v instanceof Fields f && f.byName().containsKey(field)) return f.byName().get(field);
                if (v instanceof Elements a && field.equals("length")) return a.length();
                return MISSING;
            }
            int i = (Integer) step;
            return v instanceof Elements a && i < a.first().size() ? a.first().get(i) : MISSING;
        }

        /** Why {@code step} leads nowhere from {@code v}. */
        private static String nowhere(Object v, Object step) {
            String what = describe(step);
            if (v == null) return "null has no " + what;
            if (v instanceof Fields f) {
                return "no " + what + " in " + f.type() + (f.byName().isEmpty() ? " (its fields were not captured: --max-depth)" : "");
            }
            if (v instanceof Elements a) {
                return "no " + what + " in an array of " + a.length()
                        + (a.first().size() < a.length() ? " (its first " + a.first().size() + " captured: --max-elements)" : "");
            }
            return "no " + what + " in " + v;
        }

        private static String describe(Object step) {
            return step instanceof String field ? "field " + field : "element [" + step + "]";
        }
    }

    // ------------------------------------------------------------------------- the parser

    private static final class Parser {
        private final String text;
        private int at;

        Parser(String text) {
            this.text = text;
        }

        Node or() {
            Node left = and();
            while (take("||")) left = new Or(left, and());
            return left;
        }

        Node and() {
            Node left = unary();
            while (take("&&")) left = new And(left, unary());
            return left;
        }

        Node unary() {
            skipSpace();
            if (atEnd()) throw error("a condition is missing");
            if (take("!") && !peek("=")) return new Not(unary());
            if (take("(")) {
                Node inner = or();
                if (!take(")")) throw error("')' is missing");
                return inner;
            }
            int start = at;
            String word = peekWord();
            if ("threw".equals(word)) {
                at += word.length();
                skipSpace();
                String type = peekQualifiedName();
                if (type != null && !type.equals("&&") && !type.equals("||")) at += type.length();
                return new Threw(type);
            }
            Operand left = operand();
            String op = operator();
            if (op == null) {
                if (left instanceof Literal) throw error("a comparison is missing after the value at position " + start);
                return new Truth(left);
            }
            skipSpace();
            int rightStart = at;
            Operand right = operand();
            if (isDuration(left) && isBareNumber(right) || isDuration(right) && isBareNumber(left)) {
                throw new ConditionSyntaxException("give the duration a unit (ns, us, ms, s or m), e.g. duration > 10ms", text,
                        isBareNumber(right) ? rightStart : start);
            }
            Pattern pattern = op.equals("~") && right instanceof Literal l && l.value() instanceof String g ? glob(g) : null;
            return new Compare(left, op, right, pattern);
        }

        private static boolean isDuration(Operand o) {
            return o instanceof Path p && p.root().equals("duration") && p.steps().isEmpty();
        }

        private static boolean isBareNumber(Operand o) {
            return o instanceof Literal l && l.value() instanceof Number && !l.duration();
        }

        private String operator() {
            skipSpace();
            for (String op : new String[] {"==", "!=", "<=", ">=", "<", ">", "~"}) {
                if (text.startsWith(op, at)) {
                    at += op.length();
                    return op;
                }
            }
            if (peek("=")) throw error("'=' compares as '=='");
            return null;
        }

        private Operand operand() {
            skipSpace();
            if (atEnd()) throw error("a value is missing");
            char c = text.charAt(at);
            if (c == '\'' || c == '"') return new Literal(string(c));
            if (Character.isDigit(c) || c == '-' && at + 1 < text.length() && Character.isDigit(text.charAt(at + 1))) return number();
            String word = peekWord();
            if (word == null) throw error("a value is missing");
            switch (word) {
                case "true", "false" -> {
                    at += word.length();
                    return new Literal(Boolean.valueOf(word));
                }
                case "null" -> {
                    at += word.length();
                    return new Literal(null);
                }
                default -> {
                    return path();
                }
            }
        }

        private Operand path() {
            int start = at;
            String root = peekWord();
            at += root.length();
            List<Object> steps = new ArrayList<>();
            while (more()) {
                if (text.charAt(at) == '.') {
                    at++;
                    String field = peekWord();
                    if (field == null) throw error("a field name is missing after '.'");
                    at += field.length();
                    steps.add(field);
                } else if (text.charAt(at) == '[') {
                    at++;
                    int from = at;
                    while (more() && Character.isDigit(text.charAt(at))) at++;
                    if (from == at || !more() || text.charAt(at) != ']') throw error("an index such as [0] is expected");
                    try {
                        steps.add(Integer.parseInt(text.substring(from, at)));
                    } catch (NumberFormatException e) {
                        throw new ConditionSyntaxException("the index is too large", text, from);
                    }
                    at++;
                } else {
                    break;
                }
            }
            return new Path(text.substring(start, at), root, List.copyOf(steps));
        }

        private Operand number() {
            int start = at;
            if (text.charAt(at) == '-') at++;
            while (more() && (Character.isDigit(text.charAt(at)) || text.charAt(at) == '.' || text.charAt(at) == '_')) at++;
            String digits = text.substring(start, at).replace("_", "");
            int unitStart = at;
            while (more() && Character.isLetter(text.charAt(at))) at++;
            String unit = text.substring(unitStart, at);
            try {
                if (unit.isEmpty()) {
                    return digits.contains(".") ? new Literal(Double.parseDouble(digits)) : new Literal(Long.parseLong(digits));
                }
                long scale = switch (unit) {
                    case "ns" -> 1L;
                    case "us" -> 1_000L;
                    case "ms" -> 1_000_000L;
                    case "s" -> 1_000_000_000L;
                    case "m" -> 60_000_000_000L;
                    default -> throw new ConditionSyntaxException("unknown unit '" + unit + "' (ns, us, ms, s or m)", text, unitStart);
                };
                return new Literal(Math.round(Double.parseDouble(digits) * scale), true);
            } catch (NumberFormatException e) {
                throw new ConditionSyntaxException("not a number: '" + digits + "'", text, start);
            }
        }

        private String string(char quote) {
            int start = at;
            at++;
            StringBuilder b = new StringBuilder();
            while (more() && text.charAt(at) != quote) {
                char c = text.charAt(at++);
                if (c == '\\' && more()) c = text.charAt(at++);
                b.append(c);
            }
            if (!more()) throw new ConditionSyntaxException("the string is not closed", text, start);
            at++;
            return b.toString();
        }

        private String peekWord() {
            skipSpace();
            int end = at;
            while (end < text.length() && (end == at ? Character.isJavaIdentifierStart(text.charAt(end))
                    : Character.isJavaIdentifierPart(text.charAt(end)))) end++;
            return end == at ? null : text.substring(at, end);
        }

        private String peekQualifiedName() {
            int end = at;
            while (end < text.length() && (Character.isJavaIdentifierPart(text.charAt(end)) || text.charAt(end) == '.')) end++;
            return end == at ? null : text.substring(at, end);
        }

        private boolean take(String token) {
            skipSpace();
            if (!text.startsWith(token, at)) return false;
            at += token.length();
            return true;
        }

        private boolean peek(String token) {
            return text.startsWith(token, at);
        }

        private void skipSpace() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
        }

        /** Whether characters are left, spaces counted (inside a path, a number or a string). */
        private boolean more() {
            return at < text.length();
        }

        boolean atEnd() {
            skipSpace();
            return at >= text.length();
        }

        String rest() {
            return text.substring(at);
        }

        ConditionSyntaxException error(String message) {
            return new ConditionSyntaxException(message, text, at);
        }
    }
}
