package dev.tiprobe.filter;

import java.util.List;
import java.util.Set;

/**
 * The JDK classes and methods tiprobe never instruments, and why. The probe runs on some of the
 * JDK itself: a probe in a method the probe's own path calls would call itself (a thread's id and
 * name, thread-locals, the boxes and strings it makes, {@code Object}'s constructor that every
 * {@code new} runs). The rest of the JDK can be traced; {@code java.lang}'s other classes, and those
 * of its subpackages not refused, only where a pattern names the class whole, and then only the
 * methods such patterns choose ({@code java.lang.Thread::start}), never through a wildcard such as
 * {@code java.**} or {@code **}, which would reach the classes the application's every line runs
 * on. Shared by the command, which refuses such a filter by name, and the agent, which never
 * touches these.
 */
public final class Untraceable {
    private Untraceable() {}

    /** Packages never instrumented (internal names). */
    private static final List<String> PACKAGES = List.of("jdk/internal/", "sun/", "dev/tiprobe/",
            "java/lang/invoke/", "java/lang/ref/", "java/lang/reflect/", "java/lang/constant/", "java/lang/classfile/",
            "java/lang/foreign/", "java/lang/instrument/");
    /** java.lang classes (and their nested classes) the probe's path runs on. */
    private static final Set<String> PROBES_OWN = Set.of("Object", "String", "StringBuilder", "AbstractStringBuilder",
            "StringLatin1", "StringUTF16", "StringConcatHelper", "CharSequence", "Number", "Boolean", "Byte", "Character",
            "CharacterData", "CharacterDataLatin1", "Short", "Integer", "Long", "Float", "Double", "Math", "StrictMath",
            "System", "ThreadLocal", "Class", "ClassValue", "Enum", "Record", "Iterable", "Comparable", "Runtime",
            "ScopedValue", "StackTraceElement", "Throwable", "Exception", "Error", "RuntimeException");
    /** Methods of Thread the probe calls to find the calling thread's figures. */
    private static final Set<String> THREAD_METHODS = Set.of("currentThread", "threadId", "getId", "isVirtual", "getName", "isAlive", "alive");

    private static final String JAVA_LANG = "java/lang/";

    /**
     * Why no method of the class ({@code java/lang/Object}) may carry a probe under {@code filter},
     * or null when some may.
     */
    public static String whyNotClass(String internalName, MethodFilter filter) {
        for (String p : PACKAGES) {
            if (internalName.startsWith(p)) return "the probe runs on " + p.replace('/', '.') + "**";
        }
        if (!javaLang(internalName)) return null;
        String name = internalName.substring(JAVA_LANG.length());
        int nested = name.indexOf('$');
        if (PROBES_OWN.contains(nested < 0 ? name : name.substring(0, nested))) return "the probe itself runs on it";
        return filter.namesClass(internalName.replace('/', '.')) ? null
                : "java.lang's classes are traced only when a pattern names the class, as java.lang.Thread::start";
    }

    /**
     * Whether classes of this name ({@code java/lang/...} or a subpackage) may carry a probe only
     * in the methods that a pattern naming the class whole chooses ({@link MethodFilter#matchesWhereNamed}).
     */
    public static boolean javaLang(String internalName) {
        return internalName.startsWith(JAVA_LANG);
    }

    /** Why this method of an instrumentable class may not carry a probe, or null when it may. */
    public static String whyNotMethod(String internalName, String method) {
        return internalName.equals("java/lang/Thread") && THREAD_METHODS.contains(method)
                ? "the probe calls it to find the calling thread" : null;
    }

    /**
     * The first pattern of {@code filter} that names a class or method whole that can never be
     * traced, with why ({@code java.lang.Object: the probe itself runs on it}); null when none does.
     */
    public static String refused(MethodFilter filter) {
        for (MethodFilter.Named n : filter.named()) {
            String internal = n.className().replace('.', '/');
            String why = whyNotClass(internal, filter);
            if (why != null) return n.className() + " cannot be traced: " + why;
            why = n.method() == null ? null : whyNotMethod(internal, n.method());
            if (why != null) return n.className() + "::" + n.method() + " cannot be traced: " + why;
        }
        return null;
    }
}
