package dev.tiprobe.ids;

import java.util.ArrayList;
import java.util.List;

/**
 * Human names built late from tokens (the CLR articles' "building names from IDs"):
 * {@code app.jar!com.foo.Orders.total(java.lang.String customer, int qty) : java.util.List<java.math.BigDecimal>}.
 */
public final class HumanNames {
    /** {@code ACC_VARARGS}: the last parameter is shown as {@code T...}. */
    private static final int VARARGS = 0x0080;

    private HumanNames() {}

    /** How a file of frames (folded stacks, a flame graph, pprof) names a method: {@link #frame}. */
    public enum FrameStyle {
        /** {@code java/lang/String.valueOf}: async-profiler's spelling, the default. */
        SLASH,
        /** {@code java.lang.String.valueOf}: JFR's, and async-profiler's with {@code --dot}. */
        DOT,
        /** {@code java.base/java.lang.String.valueOf}: with the module or jar, as text and JSON show it. */
        FULL
    }

    /** Where the class came from: {@code java.base/}, {@code app.jar!}, or nothing. */
    public static String origin(ClassToken c) {
        if (c.module() != null) return c.module() + "/";
        if (c.codeSource() == null) return "";
        String source = c.codeSource();
        if (source.endsWith("/")) source = source.substring(0, source.length() - 1);
        int slash = source.lastIndexOf('/');
        String last = source.substring(slash + 1);
        return last.endsWith(".jar") ? last + "!" : "";
    }

    /** {@code app.jar!com.foo.Outer$Inner}: the binary name, as a stack trace spells it, after its origin. */
    public static String className(ClassToken c) {
        return origin(c) + c.binaryName();
    }

    /** The method without parameter names. */
    public static String method(MethodToken m) {
        return method(m, null);
    }

    /**
     * The method with parameter types (generic where the class file says), parameter names when
     * {@code parameterNames} has one per descriptor parameter, and the return type.
     */
    public static String method(MethodToken m, List<String> parameterNames) {
        Descriptors.MethodType erased = Descriptors.methodDescriptor(m.descriptor());
        Descriptors.MethodType shown = erased;
        if (m.genericSignature() != null) {
            Descriptors.MethodType generic = Descriptors.methodSignature(m.genericSignature());
            // javac leaves synthetic parameters (outer instance, enum name and ordinal) out of
            // constructor signatures: use the generic types only when they line up.
            if (generic.parameters().size() == erased.parameters().size()) shown = generic;
        }
        List<String> types = new ArrayList<>(shown.parameters());
        if ((m.modifiers() & VARARGS) != 0 && !types.isEmpty() && types.getLast().endsWith("[]")) {
            String last = types.getLast();
            types.set(types.size() - 1, last.substring(0, last.length() - 2) + "...");
        }
        boolean named = parameterNames != null && parameterNames.size() == types.size();
        StringBuilder sb = new StringBuilder(className(m.owner())).append('.').append(m.name()).append('(');
        for (int i = 0; i < types.size(); i++) {
            if (i > 0) sb.append(", ");
            sb.append(types.get(i));
            if (named && parameterNames.get(i) != null) sb.append(' ').append(parameterNames.get(i));
        }
        sb.append(')');
        if (!m.name().equals("<init>") && !m.name().equals("<clinit>")) sb.append(" : ").append(shown.returnType());
        return sb.toString();
    }

    /**
     * A human name ({@link #method}) as a frame: without parameters and return type (a line number
     * the report added, {@code Bar.baz:42}, stays). {@link FrameStyle#SLASH} and
     * {@link FrameStyle#DOT} also drop the module or jar and a hidden class's {@code /hidden}
     * suffix, as async-profiler's {@code norm} option does, so that frames line up with its
     * profiles and JFR's. A name that is not a method's (an allocated class, {@code [truncated]},
     * a native symbol) has no parameter list and is returned as it is.
     */
    public static String frame(String human, FrameStyle style) {
        int paren = human.indexOf('(');
        if (paren < 0) return human;
        String head = human.substring(0, paren);
        if (style == FrameStyle.FULL) return head;
        String name = head.substring(originLength(head));
        int hidden = name.indexOf(ClassToken.HIDDEN + ".");
        if (hidden >= 0) name = name.substring(0, hidden) + name.substring(hidden + ClassToken.HIDDEN.length());
        if (style == FrameStyle.DOT) return name;
        int method = name.lastIndexOf('.');
        return method < 0 ? name : name.substring(0, method).replace('.', '/') + name.substring(method);
    }

    /** The module or jar a human method name starts with ({@code java.base}, {@code app.jar}), or null. */
    public static String originOf(String human) {
        int paren = human.indexOf('(');
        if (paren < 0) return null;
        int length = originLength(human.substring(0, paren));
        return length == 0 ? null : human.substring(0, length - 1);
    }

    /**
     * How many characters of a method's name ({@code head}: without its parameters) are its
     * {@link #origin}: up to a jar's {@code !}, or to a module's {@code /}; the {@code /} of a
     * class's {@code /hidden} suffix, followed only by the method's name, is no module's.
     */
    private static int originLength(String head) {
        int bang = head.indexOf('!');
        if (bang > 0) return bang + 1;
        int slash = head.indexOf('/');
        if (slash <= 0) return 0;
        boolean hiddenSuffix = head.startsWith(ClassToken.HIDDEN + ".", slash)
                && head.indexOf('.', slash + ClassToken.HIDDEN.length() + 1) < 0;
        return hiddenSuffix ? 0 : slash + 1;
    }
}
