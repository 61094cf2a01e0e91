package dev.tiprobe.ids;

import java.util.regex.Pattern;

/**
 * Class names as JFR writes them, spelled as tiprobe's tokens and views spell them: the agent
 * reads JFR's events live, the report reads JFR recordings, and both must name a class alike.
 */
public final class JfrNames {
    private JfrNames() {}

    /** A hidden class's address as JFR writes it ({@code Foo$$Lambda.0x0000f00}), before any array brackets. */
    private static final Pattern HIDDEN_SUFFIX = Pattern.compile("\\.0x\\p{XDigit}+(?=(\\[])*$)");

    /** A class's binary name as tokens keep it: a hidden class's address made {@code /hidden} ({@link ClassToken#stableName}). */
    public static String binaryName(String jfrName) {
        // Most names have no address: no matcher for them (the agent names every frame of every sample so)
        if (!jfrName.contains(".0x")) return jfrName;
        return HIDDEN_SUFFIX.matcher(jfrName).replaceFirst(ClassToken.HIDDEN);
    }

    /**
     * A class as the views name a type: {@code byte[]}, {@code java.lang.Object[][]},
     * {@code com.foo.Gen/hidden}; JFR names arrays by descriptor ({@code [Ljava.lang.Object;}).
     */
    public static String typeName(String jfrName) {
        String type = jfrName.startsWith("[") ? Descriptors.fieldType(jfrName.replace('.', '/')) : jfrName;
        return binaryName(type);
    }
}
