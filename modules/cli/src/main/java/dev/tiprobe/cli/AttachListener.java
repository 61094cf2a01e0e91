package dev.tiprobe.cli;

import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
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
 * <p>Only where it is plain that the attach API would do the same: the JVM is one the attach API
 * lists, that is one whose own data says it accepts attach (a JVM given
 * {@code -XX:+DisableAttachMechanism} by an environment variable or a flags file is not listed,
 * and would print a thread dump at the signal); it catches SIGQUIT (a JVM started with
 * {@code -Xrs} does not, and opens its socket as it starts instead); it runs in this command's PID
 * namespace (a container's JVM knows itself by another pid); and no other attach is under way
 * (its file is there). Anything else, or anything failing, leaves the whole of it to the attach API.
 */
final class AttachListener {
    private AttachListener() {}

    /** How often the socket is looked for. */
    static final long STEP_MILLIS = 2;
    /** How long it is waited for before the attach API takes over (which waits up to 10 s). */
    private static final long PATIENCE_MILLIS = 500;
    /** SIGQUIT's bit in /proc's signal masks: signal 3. */
    private static final long SIGQUIT_BIT = 1L << (3 - 1);

    /** The attach API's entry for {@code pid} among the JVMs that accept attach; null where it lists none. */
    static VirtualMachineDescriptor listed(long pid) {
        String id = Long.toString(pid);
        for (VirtualMachineDescriptor d : VirtualMachine.list()) if (d.id().equals(id)) return d;
        return null;
    }

    /**
     * Starts the attach listener of {@code pid}, a JVM of this user's that the attach API lists,
     * unless it runs already; never throws. Returns the file it made, for the caller to delete
     * once its attach is over (the attach API, finding a socket, makes and deletes none of its
     * own); null where it made none.
     */
    static Path start(long pid) {
        Path proc = Path.of("/proc", Long.toString(pid));
        Path socket = proc.resolve("root/tmp/.java_pid" + pid);
        try {
            if (Files.exists(socket) || !catchesSigquitInThisNamespace(proc)) return null;
            Path trigger = trigger(proc, pid);
            if (trigger == null) return null;
            Process kill = new ProcessBuilder("kill", "-QUIT", Long.toString(pid)).redirectErrorStream(true).start();
            if (kill.waitFor(PATIENCE_MILLIS, TimeUnit.MILLISECONDS) && kill.exitValue() == 0) {
                long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PATIENCE_MILLIS);
                while (!Files.exists(socket) && System.nanoTime() < until) Thread.sleep(STEP_MILLIS);
            }
            return trigger;
        } catch (IOException | RuntimeException e) {
            return null;  // no kill command, no /proc: the attach API does it all
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * Deletes what {@link #start} made, once the attach is over: a signal that finds no such file
     * makes HotSpot print a thread dump, so it stays while the listener may still be starting.
     */
    static void delete(Path trigger) {
        if (trigger == null) return;
        try {
            Files.deleteIfExists(trigger);
        } catch (IOException e) {
            // HotSpot ignores one once its socket is open
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

    /**
     * Makes the file the signal looks for, where the attach API makes it, by its real path (the
     * /proc one goes with the process); null where neither place takes it, or where one holds it
     * already: another attach is under way, which a second signal could find done.
     */
    private static Path trigger(Path proc, long pid) throws FileAlreadyExistsException {
        String name = ".attach_pid" + pid;
        for (Path dir : List.of(proc.resolve("cwd"), proc.resolve("root/tmp"))) {
            Path made;
            try {
                made = Files.createFile(dir.resolve(name));
            } catch (FileAlreadyExistsException e) {
                throw e;
            } catch (IOException | UnsupportedOperationException e) {
                continue;  // not writable: the next place
            }
            try {
                return made.toRealPath();
            } catch (IOException e) {
                return made;
            }
        }
        return null;
    }
}
