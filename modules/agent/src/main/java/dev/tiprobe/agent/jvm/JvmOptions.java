package dev.tiprobe.agent.jvm;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The options this JVM was started with, as far as the process can tell without a management
 * module: its command line and the environment variables the launcher reads. Where an option could
 * hide in a file (an {@code @argfile}, {@code -XX:Flags=}, {@code -XX:VMOptionsFile=}) the answer
 * is "not known", so a caller that must be sure assumes the worst.
 */
public final class JvmOptions {
    private JvmOptions() {}

    private static final List<String> ENVIRONMENT = List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS");

    /** Every option in sight, or empty where some may be out of sight. */
    static Optional<List<String>> known() {
        ProcessHandle.Info info = ProcessHandle.current().info();
        Optional<String[]> command = info.arguments();
        // A JVM a native launcher created (jpackage, eclipse.ini, procrun) has options its command line does not show.
        boolean javaLauncher = info.command().map(c -> c.endsWith("/java") || c.endsWith("\\java.exe")).orElse(false);
        if (command.isEmpty() || !javaLauncher) return Optional.empty();
        List<String> all = new ArrayList<>(List.of(command.get()));
        for (String name : ENVIRONMENT) {
            String value = System.getenv(name);
            if (value != null && !value.isBlank()) all.addAll(List.of(value.strip().split("\\s+")));
        }
        for (String option : all) {
            if (option.startsWith("@") || option.startsWith("-XX:Flags=") || option.startsWith("-XX:VMOptionsFile=")) return Optional.empty();
        }
        return Optional.of(all);
    }

    /** Whether the JVM was certainly started with {@code option} (false where that is not known). */
    public static boolean given(String option) {
        return known().map(all -> all.contains(option)).orElse(false);
    }

    /** Whether the JVM was certainly started with an option that begins with {@code prefix}. */
    public static boolean givenStartingWith(String prefix) {
        return known().map(all -> all.stream().anyMatch(o -> o.startsWith(prefix))).orElse(false);
    }

    /**
     * Whether HotSpot verifies the class files of every loader but the bootstrap one, as it does
     * unless told not to: then a retransformed class that would not verify is refused whole by
     * RetransformClasses, and the class runs on unchanged.
     */
    public static boolean verifiesApplicationClasses() {
        return known().map(all -> !all.contains("-XX:-BytecodeVerificationRemote") && !all.contains("-XX:BytecodeVerificationRemote=false") && !all.contains("-Xverify:none")
                && !all.contains("-noverify")).orElse(false);
    }
}
