package dev.tiprobe.filter;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which methods to instrument: patterns separated by {@code ;}, excludes prefixed with {@code !};
 * a method is chosen when an include matches it and no exclude does.
 *
 * <pre>
 *   com.foo.*                 classes of package com.foo
 *   com.foo.**                classes of com.foo and its subpackages
 *   com.foo.Bar::get*         methods of com.foo.Bar whose name starts with get
 *   *Controller::handle       a pattern without a package matches the simple class name
 *   com.foo.Bar::&lt;init&gt;       constructors (&lt;clinit&gt;: static initializers)
 *   com.foo.Bar::sum(II)I     one overload, by its descriptor ({@code f(Ljava/lang/String;)V} too)
 *   com.foo.Bar::put(String, int)   one overload by its parameters' Java types, simple or
 *                             qualified ({@code java.lang.String}, {@code int[]}, {@code Object...});
 *                             {@code ()} names the overload without parameters
 *   &#64;org.example.Timed          methods annotated so, or all methods of a class annotated so
 *   !com.foo.internal.**      exclude
 * </pre>
 *
 * Class names are binary names ({@code Outer$Inner}). A {@code ;} inside a descriptor or a
 * parameter list belongs to it, never to the list of patterns. Filters are equal when written the
 * same: the text decides every rule.
 */
public final class MethodFilter extends Parsed {
    private final List<Rule> includes;
    private final List<Rule> excludes;

    private MethodFilter(String text, List<Rule> includes, List<Rule> excludes) {
        super(text);
        this.includes = includes;
        this.excludes = excludes;
    }

    /** A malformed filter: the message names the position (0-based) in the filter text. */
    public static final class FilterSyntaxException extends SyntaxException {
        private static final long serialVersionUID = 1L;

        FilterSyntaxException(String message, String text, int position) {
            super(message, text, position);
        }
    }

    /**
     * One pattern.
     *
     * @param annotation internal descriptor {@code Lorg/example/Timed;}, or null
     * @param className  regex over the binary name (or the simple name), or null for any
     * @param method     regex over the method name, or null for any
     * @param descriptor exact method descriptor, or null for any
     * @param parameters the parameters' Java types as written ({@code String}, {@code java.lang.String},
     *                   {@code int[]}), or null for any
     */
    private record Rule(String annotation, Pattern className, boolean simpleName, Pattern method, String descriptor,
                        List<String> parameters, String exactClass, String exactMethod) {
        boolean classMayMatch(String binaryName) {
            if (annotation != null) return true;
            return className == null || className.matcher(simpleName ? simple(binaryName) : binaryName).matches();
        }

        boolean matches(String binaryName, Set<String> classAnnotations, String name, String desc,
                        Set<String> methodAnnotations) {
            if (annotation != null) {
                return classAnnotations.contains(annotation) || methodAnnotations.contains(annotation);
            }
            if (!classMayMatch(binaryName)) return false;
            if (method != null && !method.matcher(name).matches()) return false;
            if (parameters != null) return parametersMatch(parameters, desc);
            return descriptor == null || descriptor.equals(desc);
        }
    }

    /**
     * Whether a descriptor's parameters are those listed, each written whole ({@code java.util.Map.Entry})
     * or as its last parts ({@code Map.Entry}, {@code Entry}).
     */
    private static boolean parametersMatch(List<String> listed, String desc) {
        List<String> actual = javaParameterTypes(desc);
        if (actual == null || actual.size() != listed.size()) return false;
        for (int i = 0; i < listed.size(); i++) {
            String want = listed.get(i);
            String have = actual.get(i);
            if (!have.equals(want) && !have.endsWith("." + want)) return false;
        }
        return true;
    }

    /** A descriptor's parameter types as Java names, nested classes with dots ({@code java.util.Map.Entry}); null if malformed. */
    private static List<String> javaParameterTypes(String desc) {
        List<String> out = new ArrayList<>();
        int i = 1;
        while (i < desc.length() && desc.charAt(i) != ')') {
            int end = fieldTypeEnd(desc, i);
            if (end < 0) return null;
            int dims = 0;
            while (desc.charAt(i + dims) == '[') dims++;
            char c = desc.charAt(i + dims);
            String base = c == 'L' ? desc.substring(i + dims + 1, end - 1).replace('/', '.').replace('$', '.') : primitive(c);
            out.add(base + "[]".repeat(dims));
            i = end;
        }
        return out;
    }

    private static String primitive(char c) {
        return switch (c) {
            case 'Z' -> "boolean";
            case 'B' -> "byte";
            case 'C' -> "char";
            case 'S' -> "short";
            case 'I' -> "int";
            case 'J' -> "long";
            case 'F' -> "float";
            default -> "double";
        };
    }

    private static String simple(String binaryName) {
        return binaryName.substring(binaryName.lastIndexOf('.') + 1);
    }

    /**
     * Parses a filter.
     *
     * @throws FilterSyntaxException naming the position of the first error
     */
    public static MethodFilter parse(String text) {
        if (text == null || text.isBlank()) throw new FilterSyntaxException("empty filter", String.valueOf(text), 0);
        List<Rule> includes = new ArrayList<>();
        List<Rule> excludes = new ArrayList<>();
        int start = 0;
        while (start <= text.length()) {
            int end = patternEnd(text, start);
            int from = start;
            while (from < end && text.charAt(from) == ' ') from++;
            int to = end;
            while (to > from && text.charAt(to - 1) == ' ') to--;
            if (from == to) throw new FilterSyntaxException("empty pattern", text, from);
            boolean exclude = text.charAt(from) == '!';
            Rule rule = rule(text, exclude ? from + 1 : from, to);
            (exclude ? excludes : includes).add(rule);
            start = end + 1;
        }
        if (includes.isEmpty()) throw new FilterSyntaxException("only excludes: nothing would be traced", text, 0);
        return new MethodFilter(text, List.copyOf(includes), List.copyOf(excludes));
    }

    /**
     * Where the pattern that begins at {@code start} ends: the next {@code ;} outside its
     * parentheses and past its descriptor's return type ({@code f(Ljava/lang/String;)Ljava/util/List;}).
     */
    private static int patternEnd(String text, int start) {
        int i = start;
        while (i < text.length() && text.charAt(i) != ';' && text.charAt(i) != '(') i++;
        if (i < text.length() && text.charAt(i) == '(') {
            int close = text.indexOf(')', i);
            if (close < 0) return text.length();  // rule() names what is missing
            i = close + 1;
            if (i < text.length() && text.charAt(i) != ';' && text.charAt(i) != ' ') {
                int end = fieldTypeEnd(text, i);  // a descriptor's return type: its own ';' is part of it
                if (text.charAt(i) == 'V') end = i + 1;
                if (end > 0) i = end;
            }
            while (i < text.length() && text.charAt(i) != ';') i++;
        }
        return i;
    }

    private static Rule rule(String text, int from, int to) {
        if (from == to) throw new FilterSyntaxException("empty pattern after '!'", text, from);
        if (text.charAt(from) == '@') {
            String name = text.substring(from + 1, to);
            checkName(text, from + 1, to, false, "annotation name");
            return new Rule("L" + name.replace('.', '/') + ";", null, false, null, null, null, null, null);
        }
        int sep = text.indexOf("::", from);
        if (sep >= to) sep = -1;
        int classEnd = sep < 0 ? to : sep;
        if (classEnd == from) throw new FilterSyntaxException("missing class pattern", text, from);
        checkName(text, from, classEnd, true, "class pattern");
        String classPattern = text.substring(from, classEnd);
        Pattern className = classPattern.equals("**") ? null : glob(classPattern);
        boolean simpleName = classPattern.indexOf('.') < 0;
        String exactClass = simpleName || classPattern.indexOf('*') >= 0 ? null : classPattern;
        if (sep < 0) return new Rule(null, className, simpleName, null, null, null, exactClass, null);
        int nameFrom = sep + 2;
        int paren = text.indexOf('(', nameFrom);
        if (paren >= to) paren = -1;
        int nameEnd = paren < 0 ? to : paren;
        if (nameEnd == nameFrom) throw new FilterSyntaxException("missing method name after '::'", text, nameFrom);
        String methodPattern = text.substring(nameFrom, nameEnd);
        if (!methodPattern.equals("<init>") && !methodPattern.equals("<clinit>")) {
            checkName(text, nameFrom, nameEnd, true, "method pattern");
            if (methodPattern.indexOf('.') >= 0) {
                throw new FilterSyntaxException("'.' in a method name", text, nameFrom + methodPattern.indexOf('.'));
            }
        }
        String descriptor = null;
        List<String> parameters = null;
        if (paren >= 0) {
            int close = text.indexOf(')', paren);
            if (close < 0 || close >= to) throw new FilterSyntaxException("missing ')'", text, to);
            if (close == to - 1) {
                parameters = javaParameters(text, paren + 1, close);  // no return type: Java's parameter types
                if (!parameters.isEmpty() && parameters.stream().allMatch(p -> p.matches("[ZBCSIJFD]+(\\[])*"))) {
                    throw new FilterSyntaxException("a JVM descriptor needs its return type, as (I)V; Java types are written"
                            + " as (int)", text, to);
                }
            } else {
                descriptor = text.substring(paren, to);
                int bad = descriptorError(descriptor);
                if (bad >= 0) {
                    throw new FilterSyntaxException("malformed method descriptor (a JVM descriptor such as (Ljava/lang/String;I)V,"
                            + " or Java types such as (String, int))", text, paren + bad);
                }
            }
        }
        return new Rule(null, className, simpleName, methodPattern.equals("*") ? null : glob(methodPattern), descriptor, parameters,
                exactClass, exactClass == null || methodPattern.indexOf('*') >= 0 ? null : methodPattern);
    }

    /** {@code String, int[], java.util.Map.Entry, Object...}: each a Java type, spaces around commas allowed. */
    private static List<String> javaParameters(String text, int from, int to) {
        List<String> out = new ArrayList<>();
        if (text.substring(from, to).isBlank()) return out;
        int start = from;
        while (start <= to) {
            int comma = text.indexOf(',', start);
            int end = comma < 0 || comma > to ? to : comma;
            int a = start;
            while (a < end && text.charAt(a) == ' ') a++;
            int b = end;
            while (b > a && text.charAt(b - 1) == ' ') b--;
            if (a == b) throw new FilterSyntaxException("empty parameter type", text, a);
            String type = text.substring(a, b);
            int dims = 0;
            String base = type;
            if (base.endsWith("...")) {
                base = base.substring(0, base.length() - 3);
                dims++;
            }
            while (base.endsWith("[]")) {
                base = base.substring(0, base.length() - 2);
                dims++;
            }
            checkName(text, a, a + base.length(), false, "parameter type");
            out.add(base.replace('$', '.') + "[]".repeat(dims));
            start = end + 1;
        }
        return out;
    }

    private static void checkName(String text, int from, int to, boolean wildcards, String what) {
        if (from == to) throw new FilterSyntaxException("empty " + what, text, from);
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            boolean ok = Character.isJavaIdentifierPart(c) || c == '.' || (wildcards && c == '*');
            if (!ok) throw new FilterSyntaxException("unexpected '" + c + "' in " + what, text, i);
            if (c == '.' && (i == from || i == to - 1 || text.charAt(i - 1) == '.')) {
                throw new FilterSyntaxException("misplaced '.' in " + what, text, i);
            }
            if (c == '*' && i + 2 < to && text.charAt(i + 1) == '*' && text.charAt(i + 2) == '*') {
                throw new FilterSyntaxException("'***' in " + what, text, i);
            }
        }
    }

    /** Position of the first error in a method descriptor, or -1. */
    static int descriptorError(String d) {
        if (d.isEmpty() || d.charAt(0) != '(') return 0;
        int i = 1;
        while (i < d.length() && d.charAt(i) != ')') {
            int next = fieldTypeEnd(d, i);
            if (next < 0) return i;
            i = next;
        }
        if (i >= d.length()) return d.length();
        i++;
        if (i < d.length() && d.charAt(i) == 'V') return i + 1 == d.length() ? -1 : i + 1;
        int end = fieldTypeEnd(d, i);
        if (end < 0) return i;
        return end == d.length() ? -1 : end;
    }

    private static int fieldTypeEnd(String d, int i) {
        while (i < d.length() && d.charAt(i) == '[') i++;
        if (i >= d.length()) return -1;
        char c = d.charAt(i);
        if ("ZBCSIJFD".indexOf(c) >= 0) return i + 1;
        if (c != 'L') return -1;
        int semi = d.indexOf(';', i);
        return semi > i + 1 ? semi + 1 : -1;
    }

    /** {@code *} matches within a name part, {@code **} across dots. */
    private static Pattern glob(String glob) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '*') {
                if (i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
                    // "a.**" also matches "a" itself's classes: a.B, a.b.C
                    regex.append(".*");
                    i++;
                } else {
                    regex.append("[^.]*");
                }
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString());
    }

    /** A class a pattern names whole ({@code java.lang.Thread::start}), and the method it names whole, or null. */
    public record Named(String className, String method) {}

    /** The classes (and methods) the filter's patterns name whole, not by a wildcard, a simple name or an annotation. */
    public List<Named> named() {
        List<Named> out = new ArrayList<>();
        for (Rule r : includes) if (r.exactClass() != null) out.add(new Named(r.exactClass(), r.exactMethod()));
        return out;
    }

    /** Whether some pattern names this class whole ({@code java.lang.Thread::start} names {@code java.lang.Thread}). */
    public boolean namesClass(String binaryName) {
        for (Rule r : includes) if (binaryName.equals(r.exactClass())) return true;
        return false;
    }

    /**
     * Whether the method is chosen by a pattern that names its class whole (no wildcard, simple
     * name or annotation) and by no exclude: how {@code java.lang}'s methods are chosen.
     */
    public boolean matchesWhereNamed(String binaryName, String methodName, String descriptor) {
        Set<String> none = Set.of();
        for (Rule r : excludes) if (r.matches(binaryName, none, methodName, descriptor, none)) return false;
        for (Rule r : includes) {
            if (binaryName.equals(r.exactClass()) && r.matches(binaryName, none, methodName, descriptor, none)) return true;
        }
        return false;
    }

    /** Whether any method of the class could be chosen, before its annotations are known. */
    public boolean mayMatchClass(String binaryName) {
        for (Rule r : includes) if (r.classMayMatch(binaryName)) return true;
        return false;
    }

    /** Whether the method is chosen. */
    public boolean matches(String binaryName, Set<String> classAnnotations, String methodName, String descriptor,
                           Set<String> methodAnnotations) {
        for (Rule r : excludes) {
            if (r.matches(binaryName, classAnnotations, methodName, descriptor, methodAnnotations)) return false;
        }
        for (Rule r : includes) {
            if (r.matches(binaryName, classAnnotations, methodName, descriptor, methodAnnotations)) return true;
        }
        return false;
    }
}
