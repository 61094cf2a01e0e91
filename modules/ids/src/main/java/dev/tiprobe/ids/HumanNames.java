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

    /** {@code app.jar!com.foo.Outer.Inner}. */
    public static String className(ClassToken c) {
        return origin(c) + Descriptors.sourceName(c.binaryName());
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
}
