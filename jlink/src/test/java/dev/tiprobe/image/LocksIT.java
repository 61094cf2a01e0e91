package dev.tiprobe.image;

import dev.tiprobe.testing.Command;
import dev.tiprobe.testing.Command.Run;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.tiprobe.image.ImageIT.CLASSES;
import static dev.tiprobe.image.ImageIT.JAVA;
import static dev.tiprobe.image.ImageIT.tiprobe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Locks as users meet them, through the image on {@code example.known.JucLocks}: a contended
 * {@code ReentrantLock} in the lock view with its holders, deadlocks reported where a user looks
 * (status, the text report, the JFR export read by the JDK's own {@code jfr} tool) and kept when
 * the JVM is killed, and waits on queues and conditions kept out of the lock view.
 */
class LocksIT {
    @TempDir
    Path dir;

    Targets targets;

    @BeforeEach
    void targets() {
        targets = new Targets(dir);
    }

    @AfterEach
    void stopTargets() {
        targets.close();
    }

    /**
     * Four clerks take a monitor 5 ms (four times) and a ReentrantLock 20 ms at a time, with
     * async-profiler's lock mode in the same JVM over the same window: the lock's share of the
     * lock view is within 10 points of async-profiler's, the waits are credited to the method
     * that takes the lock, and the long ones name the clerk that held it, with its stack.
     */
    @Test
    void aContendedReentrantLockIsCreditedToTheCodeThatWaitsAndNamesItsHolder() throws Exception {
        Path theirs = dir.resolve("async-profiler.collapsed");
        Path recording = dir.resolve("locks.tpr");
        Run run = tiprobe("run", "--lock", "1ms", "-f", recording.toString(), "--", JAVA,
                "-agentpath:" + ImageIT.asyncProfilerLib() + "=start,lock=1ms,total,collapsed,file=" + theirs,
                "-cp", CLASSES, "example.known.JucLocks", "contended", "6");
        assertEquals(0, run.exit(), run.err());
        Path ours = dir.resolve("locks.collapsed");
        assertEquals(0, tiprobe("report", recording.toString(), "--event", "lock", "-f", ours.toString()).exit());
        double theirShare = reentrantLockShare(theirs);
        double ourShare = reentrantLockShare(ours);
        assertTrue(theirShare > 5 && theirShare < 95, "both the lock and the monitor are contended: " + Files.readString(theirs));
        assertTrue(Math.abs(ourShare - theirShare) <= 10, "the ReentrantLock's share of the lock view: tiprobe " + ourShare
                + " %, async-profiler " + theirShare + " %");

        String text = tiprobe("report", recording.toString(), "-f", "-").out();
        assertTrue(text.matches("(?s).*Top methods waiting to enter a monitor or take a lock \\(total\\)\\n.*"
                + "\\n +[0-9.]+ +[0-9.]+%  example\\.known\\.JucLocks\\.ledgerWork\\(\\) : void\\n.*"), text);
        Path json = dir.resolve("locks.json");
        assertEquals(0, tiprobe("report", recording.toString(), "-f", json.toString()).exit());
        assertTrue(Pattern.compile("\"kind\": \"parked lock\", \"type\": \\d+, \"waitNanos\": \\d+, \"frames\": \\[[0-9, ]+\\], "
                + "\"owner\": \\d+, \"ownerFrames\": \\[\\d").matcher(Files.readString(json)).find(), "a lock wait names its holder and its stack");
    }

    /**
     * async-profiler's own lock test (threads sending through one DatagramChannel, whose send
     * takes a ReentrantLock): the lock view holds the lock under DatagramChannelImpl.send.
     */
    @Test
    void asyncProfilersDatagramLockTestShowsTheSendLock() throws Exception {
        Path recording = dir.resolve("datagrams.tpr");
        Run run = tiprobe("run", "--lock", "0", "-f", recording.toString(), "--", JAVA, "-cp", CLASSES, "example.known.DatagramSends", "3");
        assertEquals(0, run.exit(), run.err());
        String text = tiprobe("report", recording.toString(), "--event", "lock", "-f", "-").out();
        assertTrue(text.matches("(?s).*Top contended monitors and locks \\(lock\\)\\n.*\\n +[0-9.]+ +(\\d\\d\\.\\d|100\\.0)%  "
                + "java\\.util\\.concurrent\\.locks\\.ReentrantLock\\n.*"), text);
        assertTrue(text.matches("(?s).*Top methods waiting to enter a monitor or take a lock \\(total\\)\\n.*"
                + "\\n +[0-9.]+ +(\\d\\d\\.\\d|100\\.0)%  java\\.base/sun\\.nio\\.ch\\.DatagramChannelImpl\\.send\\(java\\.nio\\.ByteBuffer, "
                + "java\\.net\\.SocketAddress\\) : int\\n.*"), text);
    }

    /**
     * A virtual thread pinned by a static initializer while it waits for a ReentrantLock, and a
     * thread waiting for another's class initialization: each in the lock view, named for what it
     * is (not as a bare park, nor as the VM's int[]).
     */
    @Test
    void aPinnedVirtualThreadAndAClassInitializationAreNamedForWhatTheyAre() throws Exception {
        Path out = dir.resolve("initializers.txt");
        Run run = tiprobe("run", "--lock", "50ms", "-f", out.toString(), "--", JAVA, "-cp", CLASSES, "example.known.JucLocks", "initializers");
        assertEquals(0, run.exit(), run.err());
        String text = Files.readString(out);
        assertTrue(text.matches("(?s).*Top contended monitors and locks \\(lock\\)\\n.*"
                + "%  java\\.util\\.concurrent\\.locks\\.ReentrantLock \\(virtual thread pinned: [^\\n]*JucLocks\\$Pinned\\.<clinit>[^\\n]*\\)\\n.*"),
                text);
        assertTrue(text.matches("(?s).*\\n  [0-9.]+ ms  'user' in example\\.known\\.JucLocks\\.useSlow\\(\\) : void on \\[class initialization by another thread\\]\\n"
                + "      let in by 'first'\\n.*"), text);
        assertTrue(!text.contains("int[]"), text);
    }

    /**
     * Virtual threads waiting to enter a monitor and in {@code Object.wait}, which JFR does not
     * record (JDK 25): attached for 6 s, the lock view holds the waits of 4 virtual threads taking
     * turns in one monitor, the wait view those of 4 in {@code Object.wait}, each credited to the
     * method that waits, as the threads timed them themselves: no more than they timed while the
     * command ran (so none counted twice), and a good part of it. Only a part: the command runs
     * longer than its session, and a wait that began before the session is not seen (as JFR sees
     * none of those either); few contenders keep the waits short, so most begin in the session.
     */
    @Test
    void virtualThreadsWaitingToEnterAMonitorOrInObjectWaitAreInTheirViews() throws Exception {
        Process target = targets.startJava(CLASSES, "virtual.out", "example.known.VirtualMonitors", "60");
        Path recording = dir.resolve("virtual.tpr");
        long[] before = timedWaits(dir.resolve("virtual.out"));
        Run collect = tiprobe("collect", "-d", "6s", "--lock", "1ms", "-f", recording.toString(),
                Long.toString(target.pid()));
        assertEquals(0, collect.exit(), collect.err());
        long[] after = timedWaits(dir.resolve("virtual.out"));
        String locks = viewHolding(recording, "lock", "example\\.known\\.VirtualMonitors\\$Counter", after[0] - before[0]);
        assertTrue(locks.matches("(?s).*\\(self\\)\\n[^\\n]*\\n +[0-9.]+ +[0-9.]+%  example\\.known\\.VirtualMonitors\\.count\\(long\\) : void\\n.*"),
                "the heaviest waiting method: " + locks);
        String waits = viewHolding(recording, "wait", "example\\.known\\.VirtualMonitors\\$Bell", after[1] - before[1]);
        assertTrue(waits.matches("(?s).*\\(total\\)\\n.*\\n +[0-9.]+ +([5-9][0-9]\\.[0-9])%  example\\.known\\.VirtualMonitors\\.listen\\(long\\) : void\\n.*"),
                "the waiters' method holds most of the wait view: " + waits);
    }

    /** The waits VirtualMonitors last said its threads timed: to enter the monitor, and in Object.wait, in nanoseconds. */
    private static long[] timedWaits(Path log) throws Exception {
        List<String> lines = Files.readAllLines(log);
        for (int i = lines.size() - 1; i >= 0; i--) {
            String[] words = lines.get(i).split(" ");
            if (words.length == 3 && words[0].equals("waited")) return new long[] {Long.parseLong(words[1]), Long.parseLong(words[2])};
        }
        throw new AssertionError("no waits timed yet: " + lines);
    }

    /**
     * The text of {@code recording}'s {@code event} view, once checked that the row of {@code
     * monitor} (a pattern) holds a quarter to all of {@code timedNanos}.
     */
    private String viewHolding(Path recording, String event, String monitor, long timedNanos) throws Exception {
        String view = tiprobe("report", recording.toString(), "--event", event, "-f", "-").out();
        Matcher row = Pattern.compile("\\n +([0-9.]+) +[0-9.]+%  " + monitor + "\\n").matcher(view);
        double nanos = row.find() ? Double.parseDouble(row.group(1)) * 1e6 : 0;
        assertTrue(nanos >= timedNanos / 4.0 && nanos <= 1.05 * timedNanos,
                "a quarter to all of the " + timedNanos / 1e9 + " s the threads timed while the command ran: " + view);
        return view;
    }

    /** A recording of the JVM's own JFR: its parks go into the lock view as the agent's do. */
    @Test
    void theJvmsOwnRecordingOfParksReadsIntoTheLockView() throws Exception {
        Path jfr = dir.resolve("own.jfr");
        Run program = Command.run(List.of(JAVA, "-XX:StartFlightRecording=filename=" + jfr + ",settings=profile", "-cp", CLASSES,
                "example.known.JucLocks", "contended", "3"));
        assertEquals(0, program.exit(), program.err());
        String text = tiprobe("report", jfr.toString(), "--event", "lock", "-f", "-").out();
        assertTrue(text.matches("(?s).*Top contended monitors and locks \\(lock\\)\\n.*%  java\\.util\\.concurrent\\.locks\\.ReentrantLock\\n.*"), text);
        assertTrue(text.matches("(?s).*\\(total\\)\\n.*%  example\\.known\\.JucLocks\\.ledgerWork\\(\\) : void\\n.*"), text);
    }

    /**
     * A program whose clerks contend until it exits: the waits of its last half second, which
     * JFR's shutdown hook takes from under tiprobe's stream, are in the recording, about as many
     * as the clerks timed themselves, and so is the wait of a thread that waited the whole run and
     * got in only as the program ended. (A JFR recording of the program's own beside it would
     * hide the loss: JFR's hook writes it first, and tiprobe's stream reads meanwhile.)
     */
    @Test
    void theWaitsOfAProgramsLastMomentsAreKept() throws Exception {
        Path recording = dir.resolve("last-moments.tpr");
        Run run = tiprobe("run", "--lock", "1ms", "-f", recording.toString(), "--", JAVA,
                "-cp", CLASSES, "example.known.JucLocks", "contended-to-the-end", "4");
        assertEquals(0, run.exit(), run.err());
        Matcher timed = Pattern.compile("done \\d+ late (\\d+) from (\\d+)").matcher(run.out());
        assertTrue(timed.find(), run.out());
        long theirs = Long.parseLong(timed.group(1));
        long from = Long.parseLong(timed.group(2));
        Path json = dir.resolve("last-moments.json");
        assertEquals(0, tiprobe("report", recording.toString(), "-f", json.toString()).exit());
        // as the clerks count: waits of 5 ms or more
        long ours = Pattern.compile("\\{\"epochNanos\": (\\d+), \"thread\": \\d+, \"kind\": \"(contended|parked lock)\", \"type\": \\d+, "
                        + "\"waitNanos\": (\\d+)").matcher(Files.readString(json)).results()
                .filter(m -> Long.parseLong(m.group(1)) >= from && Long.parseLong(m.group(3)) >= 5_000_000).count();
        assertTrue(theirs >= 5, theirs + " waits timed by the clerks in the last half second");
        assertTrue(ours >= theirs * 0.8, "waits in the last half second: tiprobe " + ours + ", timed by the clerks " + theirs);
        // never each twice (the stream's and the file's)
        assertTrue(ours <= theirs * 1.5 + 5, "waits in the last half second: tiprobe " + ours + ", timed by the clerks " + theirs);
        Matcher latecomer = Pattern.compile("\"(\\d+)\": \"latecomer\"").matcher(Files.readString(json));
        assertTrue(latecomer.find(), "the thread that waited to the end is named");
        assertTrue(Pattern.compile("\"thread\": " + latecomer.group(1) + ", \"kind\": \"contended\"").matcher(Files.readString(json)).find(),
                "the wait of seconds that ended as the program did");
    }

    /** The percentage of a folded lock profile's time whose leaf (the lock's class) is ReentrantLock's. */
    private static double reentrantLockShare(Path collapsed) throws Exception {
        long all = 0;
        long lock = 0;
        for (String line : Files.readAllLines(collapsed)) {
            int space = line.lastIndexOf(' ');
            long weight = Long.parseLong(line.substring(space + 1));
            String stack = line.substring(0, space);
            all += weight;
            if (stack.substring(stack.lastIndexOf(';') + 1).startsWith("java.util.concurrent.locks.ReentrantLock")) lock += weight;
        }
        assertTrue(all > 0, "a lock profile: " + collapsed);
        return 100.0 * lock / all;
    }

    /**
     * Two threads deadlocked on two locks of a kind: status names both, the text report shows
     * each one's wanted and held lock and stack, the JFR export holds one event per thread, all
     * from a recording whose JVM was killed while deadlocked.
     */
    @ParameterizedTest
    @ValueSource(strings = {"deadlock-lock", "deadlock-monitor"})
    void aDeadlockIsReportedEverywhereAndKeptWhenTheJvmIsKilled(String which) throws Exception {
        Process target = targets.start(List.of(JAVA, "-XX:+EnableDynamicAgentLoading", "-cp", CLASSES, "example.known.JucLocks", which),
                "deadlock.out", "deadlocked");
        String pid = Long.toString(target.pid());
        Path results = dir.resolve("deadlock.txt");
        Run start = tiprobe("start", "-f", results.toString(), pid);
        assertEquals(0, start.exit(), start.err());
        String lock = which.equals("deadlock-lock") ? "java\\.util\\.concurrent\\.locks\\.ReentrantLock\\$NonfairSync@[0-9a-f]+"
                : "java\\.lang\\.Object@[0-9a-f]+";
        String status = "";
        for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30); !status.contains("deadlock:") && System.nanoTime() < deadline; ) {
            Thread.sleep(200);
            status = tiprobe("status", pid).out();
        }
        assertTrue(status.matches("(?s).*; deadlock: 'left' waits for " + lock + " held by 'right', 'right' waits for " + lock
                + " held by 'left'.*"), status);
        target.destroyForcibly().waitFor();

        Path recording = dir.resolve("deadlock.txt.tpr");
        Run text = tiprobe("report", recording.toString(), "-f", "-");
        assertEquals(0, text.exit(), text.err());
        String method = which.equals("deadlock-lock") ? "takeInTurn" : "enterInTurn";
        assertTrue(text.out().matches("(?s).*DEADLOCK found [0-9.]+ s into the recording: 2 threads wait on each other\\n"
                + "  'left' waits for " + lock + " held by 'right'\\n      holds " + lock + "\\n(        at .*\\n)*?"
                + "        at example\\.known\\.JucLocks\\." + method + "\\(.*\\n(        at .*\\n)*"
                + "  'right' waits for " + lock + " held by 'left'\\n      holds " + lock + "\\n.*"), text.out());

        Path jfr = dir.resolve("deadlock.jfr");
        assertEquals(0, tiprobe("report", recording.toString(), "-f", jfr.toString()).exit());
        Run events = Command.run(List.of(Path.of(System.getProperty("java.home"), "bin", "jfr").toString(), "print", "--stack-depth", "20", "--events",
                "tiprobe.Deadlock", jfr.toString()));
        assertEquals(0, events.exit(), events.err());
        assertEquals(2, Pattern.compile("tiprobe\\.Deadlock \\{").matcher(events.out()).results().count(), events.out());
        assertTrue(events.out().contains("eventThread = \"left\"") && events.out().contains("heldBy = \"left\""), events.out());
        assertTrue(events.out().contains("JucLocks." + method), events.out());
    }

    /** Threads that only wait on a queue and a condition: all in the wait view, and the lock view empty with its line. */
    @Test
    void waitsOnQueuesAndConditionsStayOutOfTheLockView() throws Exception {
        Path out = dir.resolve("queues.txt");
        // 50 ms: the queue's and the condition's own locks are taken for microseconds, but a busy machine can stall a holder for ms
        Run run = tiprobe("run", "--lock", "50ms", "-f", out.toString(), "--", JAVA, "-cp", CLASSES, "example.known.JucLocks", "queues", "3");
        assertEquals(0, run.exit(), run.err());
        String text = Files.readString(out);
        assertTrue(text.contains("No contention was seen: no thread waited 50 ms or longer to enter a monitor or take a lock"), text);
        assertTrue(!text.contains("\nlock: "), "no lock view: " + text);
        assertTrue(text.matches("(?s).*Top methods in Object\\.wait or parked \\(self\\)\\n.*"
                + "java\\.base/java\\.util\\.concurrent\\.LinkedBlockingQueue\\.take\\(\\) : E\\n.*"), text);
        assertTrue(text.contains("example.known.JucLocks.lambda$queues$"), "credited to the program's waiting code: " + text);
    }
}
