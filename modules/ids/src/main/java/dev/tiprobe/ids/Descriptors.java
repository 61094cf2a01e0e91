package dev.tiprobe.ids;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads JVM descriptors ({@code (Ljava/lang/String;[I)V}) and generic signatures
 * ({@code <T:Ljava/lang/Object;>(TT;)Ljava/util/List<TT;>;}) into the spelling of human names.
 * Malformed input fails with a {@link MalformedSignatureException} that points at the position.
 *
 * <p>Classes keep their binary names, as stack traces, {@code javap}, JFR and async-profiler spell
 * them ({@code java.util.Map$Entry}): one spelling of a class in every view and filter; files of
 * frames change only the package separator ({@link HumanNames#frame}).
 */
public final class Descriptors {
    private Descriptors() {}

    /** A method's parameter and return types, spelled as in Java source. */
    public record MethodType(List<String> typeParameters, List<String> parameters, String returnType,
                             List<String> exceptions) {}

    /** Checks a method descriptor, e.g. {@code (I)V}. */
    public static void checkMethodDescriptor(String descriptor) {
        parseMethod(descriptor, false);
    }

    /** The parameter and return types of a method descriptor. */
    public static MethodType methodDescriptor(String descriptor) {
        return parseMethod(descriptor, false);
    }

    /** The types of a method's generic signature (the Signature attribute). */
    public static MethodType methodSignature(String signature) {
        return parseMethod(signature, true);
    }

    /** A field descriptor or class signature type, e.g. {@code [Ljava/lang/String;} as {@code java.lang.String[]}. */
    public static String fieldType(String descriptor) {
        Parser p = new Parser(descriptor, false);
        String type = p.type();
        p.end();
        return type;
    }

    /**
     * The internal name a descriptor refers to, for type-reference resolution: {@code Lcom/foo/Bar;}
     * gives {@code com/foo/Bar}, {@code [[Lcom/foo/Bar;} gives {@code [[Lcom/foo/Bar;} (arrays are
     * named by their descriptor), a primitive gives its letter.
     */
    public static String internalName(String descriptor) {
        fieldType(descriptor);  // validates
        return descriptor.charAt(0) == 'L' ? descriptor.substring(1, descriptor.length() - 1) : descriptor;
    }

    private static MethodType parseMethod(String text, boolean generic) {
        Parser p = new Parser(text, generic);
        List<String> typeParameters = generic && p.peek() == '<' ? p.typeParameters() : List.of();
        p.expect('(');
        List<String> parameters = new ArrayList<>();
        while (p.peek() != ')') parameters.add(p.type());
        p.expect(')');
        String returnType = p.peek() == 'V' ? p.skipVoid() : p.type();
        List<String> exceptions = new ArrayList<>();
        while (generic && p.more() && p.peek() == '^') {
            p.expect('^');
            exceptions.add(p.type());
        }
        p.end();
        return new MethodType(typeParameters, List.copyOf(parameters), returnType, List.copyOf(exceptions));
    }

    /** Thrown for a descriptor or signature the JVM would reject; the message points at the position. */
    public static final class MalformedSignatureException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        MalformedSignatureException(String text, int position, String what) {
            super("malformed " + (text.startsWith("(") || text.startsWith("<") ? "method " : "") + "descriptor or signature \""
                    + text + "\" at " + position + ": " + what);
        }
    }

    /** A recursive-descent reader of JVMS 4.3 descriptors and 4.7.9.1 signatures. */
    private static final class Parser {
        private final String s;
        private final boolean generic;
        private int i;

        Parser(String s, boolean generic) {
            if (s == null || s.isEmpty()) throw new MalformedSignatureException(String.valueOf(s), 0, "empty");
            this.s = s;
            this.generic = generic;
        }

        boolean more() {
            return i < s.length();
        }

        char peek() {
            if (i >= s.length()) throw fail("unexpected end");
            return s.charAt(i);
        }

        void expect(char c) {
            if (peek() != c) throw fail("expected '" + c + "', found '" + peek() + "'");
            i++;
        }

        void end() {
            if (i != s.length()) throw fail("unexpected '" + s.charAt(i) + "' after the end");
        }

        String skipVoid() {
            i++;
            return "void";
        }

        MalformedSignatureException fail(String what) {
            return new MalformedSignatureException(s, i, what);
        }

        List<String> typeParameters() {
            expect('<');
            List<String> params = new ArrayList<>();
            do {
                String name = identifier(":");
                expect(':');
                List<String> bounds = new ArrayList<>();
                char next = peek();
                if (next == 'L' || next == 'T' || next == '[') bounds.add(type());  // the class bound, if any
                while (peek() == ':') {
                    i++;
                    bounds.add(type());
                }
                bounds.remove("java.lang.Object");
                params.add(bounds.isEmpty() ? name : name + " extends " + String.join(" & ", bounds));
            } while (peek() != '>');
            expect('>');
            return List.copyOf(params);
        }

        String type() {
            char c = peek();
            switch (c) {
                case 'B': i++; return "byte";
                case 'C': i++; return "char";
                case 'D': i++; return "double";
                case 'F': i++; return "float";
                case 'I': i++; return "int";
                case 'J': i++; return "long";
                case 'S': i++; return "short";
                case 'Z': i++; return "boolean";
                case '[': {
                    i++;
                    return type() + "[]";
                }
                case 'L': return classType();
                case 'T': {
                    if (!generic) throw fail("type variable in a descriptor");
                    i++;
                    String name = identifier(";");
                    expect(';');
                    return name;
                }
                default: throw fail("expected a type, found '" + c + "'");
            }
        }

        private String classType() {
            expect('L');
            StringBuilder sb = new StringBuilder();
            while (true) {
                String part = identifier(generic ? ";<./" : ";/");
                sb.append(part);
                char c = peek();
                if (c == '/') {
                    sb.append('.');
                    i++;
                } else if (c == '<' && generic) {
                    sb.append(typeArguments());
                    if (peek() == '.') {
                        i++;
                        sb.append('.');
                    } else {
                        expect(';');
                        return sb.toString();
                    }
                } else if (c == '.' && generic) {
                    sb.append('.');
                    i++;
                } else {
                    expect(';');
                    return sb.toString();
                }
            }
        }

        private String typeArguments() {
            expect('<');
            List<String> args = new ArrayList<>();
            while (peek() != '>') {
                char c = peek();
                if (c == '*') {
                    i++;
                    args.add("?");
                } else if (c == '+') {
                    i++;
                    args.add("? extends " + type());
                } else if (c == '-') {
                    i++;
                    args.add("? super " + type());
                } else {
                    args.add(type());
                }
            }
            expect('>');
            if (args.isEmpty()) throw fail("empty type arguments");
            return "<" + String.join(", ", args) + ">";
        }

        /** Characters up to one of {@code stops}; at least one. */
        private String identifier(String stops) {
            int start = i;
            while (i < s.length() && stops.indexOf(s.charAt(i)) < 0 && "()[<>:;".indexOf(s.charAt(i)) < 0) i++;
            if (i == start) throw fail("expected a name");
            return s.substring(start, i);
        }
    }
}
