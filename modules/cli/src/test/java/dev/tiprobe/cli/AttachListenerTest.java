package dev.tiprobe.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AttachListenerTest {
    @TempDir
    Path dir;

    /** The listener is up when start returns, so the attach API's first wait is not needed; nothing is left behind or printed. */
    @Test
    void aJvmOpensItsAttachSocketWithoutAThreadDump() throws Exception {
        Process target = sleeper();
        try {
            Path socket = Path.of("/tmp/.java_pid" + target.pid());
            assertFalse(Files.exists(socket), "the target's listener had started already");
            assertNotNull(AttachListener.listed(target.pid()), "the attach API lists it");
            Path trigger = AttachListener.start(target.pid());
            assertTrue(Files.exists(socket), "no attach socket after start");
            assertEquals(dir.resolve(".attach_pid" + target.pid()).toRealPath(), trigger, "made where the attach API makes it, by its real path");
            AttachListener.delete(trigger);
            assertFalse(Files.exists(trigger), "the trigger file is left in the target's directory");
            assertTrue(target.isAlive());
        } finally {
            target.destroy();
            target.waitFor();
        }
        assertFalse(Files.readString(dir.resolve("out.txt")).contains("Full thread dump"), "the signal printed a thread dump");
    }

    /**
     * A JVM started with -Xrs does not catch SIGQUIT (it opens its attach socket as it starts
     * instead): it gets no signal from here, where a process that leaves SIGQUIT to its default
     * action would end.
     */
    @Test
    void aJvmThatDoesNotCatchSigquitIsNotSignalled() throws Exception {
        Process target = sleeper("-Xrs");
        try {
            assertFalse(AttachListener.catchesSigquitInThisNamespace(Path.of("/proc", Long.toString(target.pid()))));
            assertNull(AttachListener.start(target.pid()), "no trigger made");  // the attach API finds the socket there already
            assertFalse(target.waitFor(300, java.util.concurrent.TimeUnit.MILLISECONDS), "the target ended");
        } finally {
            target.destroy();
            target.waitFor();
        }
    }

    /**
     * A JVM given -XX:+DisableAttachMechanism where tiprobe's look at its command line does not
     * see it, by JAVA_TOOL_OPTIONS, is not listed by the attach API, so it is never signalled
     * (it would print a thread dump).
     */
    @Test
    void aJvmThatRefusesAttachIsNotListed() throws Exception {
        Process target = sleeper(Map.of("JAVA_TOOL_OPTIONS", "-XX:+DisableAttachMechanism"));
        try {
            assertNull(AttachListener.listed(target.pid()));
        } finally {
            target.destroy();
            target.waitFor();
        }
    }

    /** A JVM, in {@link #dir}, that has printed its first line and sleeps. */
    private Process sleeper(String... options) throws Exception {
        return sleeper(Map.of(), options);
    }

    private Process sleeper(Map<String, String> environment, String... options) throws Exception {
        Path source = dir.resolve("Sleeper.java");
        Files.writeString(source, "class Sleeper { public static void main(String[] a) throws Exception {"
                + " System.out.println(\"ready\"); Thread.sleep(120_000); } }");
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow()));
        command.addAll(List.of(options));
        command.add(source.toString());
        Path out = dir.resolve("out.txt");
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(out.toFile());
        builder.environment().putAll(environment);
        Process p = builder.start();
        long until = System.nanoTime() + 60_000_000_000L;
        while (!Files.readString(out).contains("ready")) {
            assertTrue(p.isAlive() && System.nanoTime() < until, "the target did not start: " + Files.readString(out));
            Thread.sleep(20);
        }
        return p;
    }
}
