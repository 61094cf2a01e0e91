package dev.tiprobe.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The java command {@code tiprobe run} is asked to start, checked before it starts: it must be a
 * java launcher of Java 25 or newer. An older JVM would die on the agent's class files with a
 * fatal error, and another command would ignore the agent, so both are refused with one line
 * instead. The version comes from the {@code release} file of the launcher's JDK, after following
 * links (/usr/bin/java is usually a link to one), so nothing runs to find it.
 */
final class JavaLauncher {
    private JavaLauncher() {}

    private static final Pattern VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"([^\"]+)\"");
    private static final Pattern MODULES = Pattern.compile("(?m)^MODULES=\"([^\"]*)\"");

    /** What the checked launcher's runtime has: {@code jfr}, whether it holds the {@code jdk.jfr} module. */
    record Runtime(boolean jfr) {}

    /**
     * Checks {@code command} and says what its runtime has. A runtime whose release file does not
     * list its modules is taken to have JFR, as every JDK does (a jlinked runtime lists them).
     */
    static Runtime check(String command) throws CliException {
        Path launcher = onPath(command).orElseThrow(() -> new CliException("cannot start " + command + ": no such command"));
        Path real;
        try {
            real = launcher.toRealPath();
        } catch (IOException e) {
            throw new CliException("cannot start " + command + ": " + e.getMessage(), e);
        }
        String name = real.getFileName().toString();
        if (!name.equals("java") && !name.equals("java.exe")) {
            throw new UsageException(command + " is not a java launcher: tiprobe run starts a JVM, e.g. tiprobe run -- java -jar app.jar");
        }
        Path home = real.getParent() == null ? null : real.getParent().getParent();
        Optional<String> version = home == null ? Optional.empty() : releaseVersion(home.resolve("release"));
        int feature = version.map(Target::feature).orElse(-1);
        if (feature >= 0 && feature < Target.MIN_FEATURE) {  // an unreadable version: let the JVM start
            throw new CliException(command + " is Java " + version.get() + " (" + home + "); tiprobe needs Java "
                    + Target.MIN_FEATURE + " or newer");
        }
        Optional<String> modules = home == null ? Optional.empty() : release(home.resolve("release"), MODULES);
        return new Runtime(modules.map(m -> List.of(m.split(" ")).contains("jdk.jfr")).orElse(true));
    }

    /** {@code command} itself when it names a file, else the first match on PATH. */
    private static Optional<Path> onPath(String command) {
        if (command.contains(File.separator)) return Optional.of(Path.of(command)).filter(Files::isExecutable);
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            Path candidate = Path.of(dir, command);
            if (Files.isExecutable(candidate)) return Optional.of(candidate);
        }
        return Optional.empty();
    }

    /** The {@code JAVA_VERSION} of a runtime's {@code release} file, or empty when it cannot be read. */
    static Optional<String> releaseVersion(Path release) {
        return release(release, VERSION);
    }

    /** The value of one line of a release file, or empty when it cannot be read (then the JVM decides). */
    private static Optional<String> release(Path release, Pattern line) {
        try {
            Matcher m = line.matcher(Files.readString(release));
            return m.find() ? Optional.of(m.group(1)) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();  // no release file: let the JVM start
        }
    }
}
