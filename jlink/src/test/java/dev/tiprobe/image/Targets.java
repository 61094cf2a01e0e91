package dev.tiprobe.image;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The target JVMs one test starts, and only those: each writes its output to a file in the
 * test's directory; {@link #close()} kills whatever is still running.
 */
final class Targets implements AutoCloseable {
    private final Path dir;
    private final List<Process> started = new ArrayList<>();

    Targets(Path dir) {
        this.dir = dir;
    }

    /**
     * Starts {@code mainClass} of {@code classPath} on the test's JDK with the flags README
     * recommends for attaching, its output in {@code log}; returns once it printed "ready".
     */
    Process startJava(String classPath, String log, String mainClass, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(ImageIT.JAVA));
        command.addAll(ImageIT.QUIET);
        command.addAll(List.of("-cp", classPath, mainClass));
        command.addAll(List.of(args));
        return startReady(command, log);
    }

    /** Starts {@code command} with its output in {@code log}; returns once it printed "ready". */
    Process startReady(List<String> command, String log) throws Exception {
        return start(command, log, "ready");
    }

    /** Starts {@code command} with its output in {@code log}; returns once it printed {@code ready}. */
    Process start(List<String> command, String log, String ready) throws Exception {
        Path out = dir.resolve(log);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        started.add(p);
        await(out, p, text -> text.contains(ready), "target did not start");
        return p;
    }

    /**
     * Waits up to a minute for the text of {@code log} to be {@code seen}, while {@code p} lives
     * (null: whether or not); fails with {@code what} and the log's text.
     */
    static void await(Path log, Process p, java.util.function.Predicate<String> seen, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!seen.test(Files.readString(log))) {
            assertTrue((p == null || p.isAlive()) && System.nanoTime() < deadline, what + ": " + Files.readString(log));
            Thread.sleep(20);
        }
    }

    /**
     * One round of a target that waits for {@code <dir>/go} and answers with {@code <dir>/done}
     * (Known, GroovyScripts): returns when the target has written {@code done}.
     */
    static void round(Path dir) throws Exception {
        Files.deleteIfExists(dir.resolve("done"));
        Files.writeString(dir.resolve("go"), "go");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(dir.resolve("done"))) {
            assertTrue(System.nanoTime() < deadline, "the round did not finish");
            Thread.sleep(10);
        }
    }

    /** Counts {@code p} among the processes to kill at the end. */
    void add(Process p) {
        started.add(p);
    }

    /** Kills every process started, and their children first: a JVM under a wrapper ({@code timeout java ...}) would outlive it. */
    @Override
    public void close() {
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }
}
