package dev.tiprobe.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a command of the test's own to its end: no input, stdout and stderr read apart (a child
 * that fills one pipe while the test reads the other would hang), killed after a timeout.
 */
public final class Command {
    private Command() {}

    /** How a command ended: exit code, stdout, stderr. */
    public record Run(int exit, String out, String err) {
        /** Both streams, stdout first: for what a test looks for wherever it was printed. */
        public String all() {
            return out + err;
        }
    }

    /** The most a test waits for a command. */
    public static final long TIMEOUT_MINUTES = 5;

    /**
     * Runs {@code command} to its end; both pipes are read on threads of their own, so a command
     * that hangs fails the test after {@link #TIMEOUT_MINUTES} instead of hanging it, and is killed
     * with what it started ({@code tiprobe run}'s target JVM, say).
     */
    public static Run run(List<String> command) throws IOException, InterruptedException {
        return runIn(null, command);
    }

    /** As {@link #run}, in {@code directory} (null: this process's): where what a command leaves behind would go. */
    public static Run runIn(java.nio.file.Path directory, List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(directory == null ? null : directory.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        CompletableFuture<String> out = readAll(p.getInputStream());
        CompletableFuture<String> err = readAll(p.getErrorStream());
        if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            String threads = threadDumps(p);
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("did not finish in " + TIMEOUT_MINUTES + " minutes: " + command + "\n" + threads);
        }
        try {
            // A process it started may keep the pipes open after it ended: give up on them after a minute.
            return new Run(p.exitValue(), out.get(1, TimeUnit.MINUTES), err.get(1, TimeUnit.MINUTES));
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            throw new AssertionError("its output did not end a minute after it exited: " + command, e);
        }
    }

    /** The threads of {@code p} and of the JVMs it started, as jcmd prints them: what a hung command was doing. */
    private static String threadDumps(Process p) {
        StringBuilder b = new StringBuilder();
        java.util.stream.Stream.concat(java.util.stream.Stream.of(p.toHandle()), p.descendants()).forEach(h -> b.append(threadDump(h)));
        return b.toString();
    }

    /** The threads of the JVM {@code h}, as jcmd prints them: what a target that stopped answering was doing. */
    public static String threadDump(ProcessHandle h) {
        try {
            Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(h.pid()), "Thread.print").redirectErrorStream(true).start();
            CompletableFuture<String> dump = readAll(jcmd.getInputStream());
            if (jcmd.waitFor(30, TimeUnit.SECONDS)) return dump.get(5, TimeUnit.SECONDS);
            jcmd.destroyForcibly();
            return "no thread dump of " + h.pid() + ": jcmd did not answer in 30 s\n";
        } catch (Exception e) {
            return "no thread dump of " + h.pid() + ": " + e + "\n";
        }
    }

    /** All of {@code stream}, read on a daemon thread. */
    private static CompletableFuture<String> readAll(java.io.InputStream stream) {
        CompletableFuture<String> text = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try (stream) {
                text.complete(new String(stream.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                text.completeExceptionally(new UncheckedIOException(e));
            }
        });
        return text;
    }

    /** The {@code java} launcher of the JDK the tests run on. */
    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** {@code java <options> <main> <args>} on the JDK the tests run on. */
    public static Run java(List<String> options, String main, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(options);
        command.add(main);
        command.addAll(List.of(args));
        return run(command);
    }

    /**
     * {@code main} in a JVM of its own on what the test JVM has (module path and class path) plus
     * the module's test classes, as class path.
     */
    public static Run onTestClassPath(List<String> options, String main, String... args) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(options);
        all.add("-cp");
        all.add(testClassPath());
        return java(all, main, args);
    }

    /** Everything the test JVM has (module path and class path) plus {@code target/test-classes}. */
    public static String testClassPath() {
        List<String> entries = new ArrayList<>();
        for (String property : List.of("jdk.module.path", "java.class.path")) {
            for (String e : System.getProperty(property, "").split(File.pathSeparator)) {
                if (!e.isBlank() && !entries.contains(e)) entries.add(e);
            }
        }
        String testClasses = Path.of("target", "test-classes").toAbsolutePath().toString();
        if (!entries.contains(testClasses)) entries.add(testClasses);
        return String.join(File.pathSeparator, entries);
    }
}
