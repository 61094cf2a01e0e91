package dev.tiprobe.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts a target JVM's attach listener the way the attach API does, and waits for it in short
 * steps rather than the attach API's first fixed sleep of 100 ms.
 *
 * <p>HotSpot opens its attach socket ({@code /tmp/.java_pid<pid>}) when a SIGQUIT finds a file
 * {@code .attach_pid<pid>} in its working directory or {@code /tmp}; it takes a few milliseconds.
 * The attach API, finding no socket, makes that file, sends the signal and sleeps 100 ms before it
 * looks again; finding the socket there, it connects at once. So this does the first part and
 * looks every {@link #STEP_MILLIS} ms; the attach that follows finds the socket.
 *
 * <p>Only where it is plain that the attach API would do the same: the target catches SIGQUIT (a
 * JVM started with {@code -Xrs} does not, and opens its socket as it starts instead; a process
 * that leaves the signal to its default action would end), and it runs in this
 * command's PID namespace (a container's JVM knows itself by another pid). Anything else, or
 * anything failing, leaves the whole of it to the attach API.
 */
final class AttachListener {
    private AttachListener() {}

    /** How often the socket is looked for. */
    static final long STEP_MILLIS = 2;
    /** How long it is waited for before the attach API takes over (which waits up to 10 s). */
    private static final long PATIENCE_MILLIS = 500;
    /** SIGQUIT's bit in /proc's signal masks: signal 3. */
    private static final long SIGQUIT_BIT = 1L << (3 - 1);

    /** Starts the attach listener of {@code pid}, a JVM of this user's, unless it runs already; never throws. */
    static void start(long pid) {
        Path proc = Path.of("/proc", Long.toString(pid));
        Path socket = proc.resolve("root/tmp/.java_pid" + pid);
        Path trigger = null;
        boolean signalled = false;
        try {
            if (Files.exists(socket) || !catchesSigquitInThisNamespace(proc)) return;
            trigger = trigger(proc, pid);
            if (trigger == null) return;
            Process kill = new ProcessBuilder("kill", "-QUIT", Long.toString(pid)).redirectErrorStream(true).start();
            signalled = true;
            if (!kill.waitFor(PATIENCE_MILLIS, TimeUnit.MILLISECONDS) || kill.exitValue() != 0) return;
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PATIENCE_MILLIS);
            while (!Files.exists(socket) && System.nanoTime() < until) Thread.sleep(STEP_MILLIS);
        } catch (IOException | RuntimeException e) {
            // no kill command, no /proc: the attach API does it all
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            // A signal that finds no trigger makes HotSpot print a thread dump: while the listener may
            // still be starting, the file stays for the attach API, which takes it as its own and deletes it.
            if (trigger != null && (!signalled || Files.exists(socket))) {
                try {
                    Files.deleteIfExists(trigger);
                } catch (IOException e) {
                    // HotSpot ignores one once its socket is open
                }
            }
        }
    }

    /**
     * Whether the process at {@code proc} handles SIGQUIT and has one pid only, the one /proc
     * gives it: its {@code NSpid} line lists one pid per namespace it is seen from.
     */
    static boolean catchesSigquitInThisNamespace(Path proc) throws IOException {
        List<String> status = Files.readAllLines(proc.resolve("status"));
        String caught = field(status, "SigCgt:");
        String pids = field(status, "NSpid:");
        if (caught == null || pids == null || pids.split("\\s+").length != 1) return false;
        return (Long.parseUnsignedLong(caught, 16) & SIGQUIT_BIT) != 0;
    }

    private static String field(List<String> status, String name) {
        for (String line : status) if (line.startsWith(name)) return line.substring(name.length()).strip();
        return null;
    }

    /** Makes the file the signal looks for, where the attach API makes it; null where neither place takes it. */
    private static Path trigger(Path proc, long pid) {
        String name = ".attach_pid" + pid;
        for (Path dir : List.of(proc.resolve("cwd"), proc.resolve("root/tmp"))) {
            try {
                return Files.createFile(dir.resolve(name));
            } catch (IOException | UnsupportedOperationException e) {
                // not writable, or there already (another attach is under way): try the next
            }
        }
        return null;
    }
}
