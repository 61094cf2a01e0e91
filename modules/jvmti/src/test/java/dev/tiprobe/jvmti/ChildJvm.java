package dev.tiprobe.jvmti;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starts a JVM of the test's own, on the test's classes, and waits for it. */
final class ChildJvm {
    record Result(int exitCode, String output) {}

    private ChildJvm() {}

    /** Runs {@code mainClass} on a class path of the facade, the bindings and the test classes. */
    static Result run(List<String> jvmOptions, String mainClass, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath());
        command.add(mainClass);
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("child JVM timed out: " + command);
        }
        return new Result(p.exitValue(), output);
    }

    /** Everything the surefire JVM has (module path and class path) plus the test classes. */
    static String classPath() {
        List<String> entries = new ArrayList<>();
        for (String property : List.of("jdk.module.path", "java.class.path")) {
            String value = System.getProperty(property, "");
            for (String e : value.split(File.pathSeparator)) if (!e.isBlank() && !entries.contains(e)) entries.add(e);
        }
        String testClasses = Path.of("target", "test-classes").toAbsolutePath().toString();
        if (!entries.contains(testClasses)) entries.add(testClasses);
        return String.join(File.pathSeparator, entries);
    }
}
