package dev.tiprobe.image;

import dev.tiprobe.testing.Command.Run;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.tiprobe.image.ImageIT.CLASSES;
import static dev.tiprobe.image.ImageIT.JAVA;
import static dev.tiprobe.image.ImageIT.QUIET;
import static dev.tiprobe.image.ImageIT.tiprobe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tracing over runs long enough for what happens after the start: a class tiprobe changes while
 * one of its methods loops is stranded in the interpreter for good (10 to 50 times slower), so
 * tiprobe never changes such a class. {@code example.known.EnterLoop} prints each second's cost
 * of a call; each test compares speeds measured in its own run, against bounds wide enough for a
 * busy machine and far from a stranded loop's. The figures themselves are in BENCHMARKS.md
 * ({@code scripts/bench/enter-path.sh}).
 */
class LongRunIT {
    private static final String LOOP = "example.known.EnterLoop";
    /** A stranded loop runs 10 to 50 times slower; a probe in a loop of one-nanosecond calls, two to three times. */
    private static final double STRANDED = 5.0;

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

    /** {@code second <n> <ns>} lines of a run's output, by second. */
    static double[] perSecond(String out) {
        Matcher m = Pattern.compile("(?m)^second (\\d+) ([0-9.]+)$").matcher(out);
        List<Double> ns = new ArrayList<>();
        while (m.find()) ns.add(Double.parseDouble(m.group(2)));
        return ns.stream().mapToDouble(Double::doubleValue).toArray();
    }

    static double median(double[] values, int from, int to) {
        double[] part = Arrays.copyOfRange(values, from, Math.min(to, values.length));
        assertTrue(part.length > 0, "no seconds in " + from + ".." + to + " of " + Arrays.toString(values));
        Arrays.sort(part);
        return part[part.length / 2];
    }

    private static List<String> loop(int seconds, String callee) {
        List<String> command = new ArrayList<>(List.of(JAVA, "-Xlog:redefine+class+load=info",
                "-XX:CompileCommand=quiet", "-XX:CompileCommand=dontinline," + LOOP + "::chunk", "-cp", CLASSES, LOOP,
                Integer.toString(seconds), callee));
        command.addAll(1, QUIET);
        return command;
    }

    private static Run untraced(int seconds, String callee) throws Exception {
        return dev.tiprobe.testing.Command.run(loop(seconds, callee));
    }

    @Test
    void tracedFromTheStartTheLoopsClassIsNeverChangedAgainAndStaysCompiled() throws Exception {
        Run plain = untraced(6, "own");
        assertEquals(0, plain.exit(), plain.err());
        List<String> command = new ArrayList<>(List.of("run", "--trace", LOOP + "::work", "--mode", "count",
                "-f", dir.resolve("run.json").toString(), "--"));
        command.addAll(loop(6, "own"));
        Run traced = tiprobe(command.toArray(String[]::new));
        assertEquals(0, traced.exit(), traced.err());
        assertFalse(traced.out().contains("redefined name=" + LOOP), "instrumented as it loaded, never changed again: " + traced.out());
        double before = median(perSecond(plain.out()), 2, 6);
        double after = median(perSecond(traced.out()), 2, 6);
        assertTrue(after < STRANDED * before, "the traced loop stays compiled: " + after + " ns a call against " + before
                + " untraced\n" + traced.out());
        Matcher done = Pattern.compile("(?m)^done \\S+ (\\d+) ").matcher(traced.out());
        assertTrue(done.find(), traced.out());
        assertEquals(Long.parseLong(done.group(1)), ImageIT.calls(dir.resolve("run.json"), "work"), "every call counted");
    }

    /**
     * Attached, a class whose loop runs is left unchanged, whether the loop's own code is the
     * work ({@code own}) or it only calls a method of its class, a microsecond a call
     * ({@code chunks}): changed, that loop too would go round interpreted for good, which costs
     * such a loop a few percent, more than this test could tell from a busy machine.
     */
    @ParameterizedTest
    @ValueSource(strings = {"own", "chunks"})
    void attachedTracingLeavesARunningLoopsClassUnchangedAndSaysWhy(String callee) throws Exception {
        Path log = dir.resolve("loop.out");
        Process target = targets.start(loop(120, callee), "loop.out", "second 2");
        Run collect = tiprobe("collect", "-d", "2s", "--trace", LOOP + "::work", "--mode", "count",
                "-f", dir.resolve("attached.txt").toString(), Long.toString(target.pid()));
        assertEquals(0, collect.exit(), collect.err());
        assertTrue(collect.err().contains("EnterLoop.main (thread main) was running a loop in it"), collect.err());
        assertTrue(collect.err().contains("tiprobe run traces them from the start"), collect.err());
        assertFalse(collect.err().contains("the filter matches no method"), "the class is named, not the filter blamed: " + collect.err());
        int ended = perSecond(Files.readString(log)).length;
        Targets.await(log, target, text -> perSecond(text).length >= ended + 3, "the loop goes on after the session");
        String out = Files.readString(log);
        assertFalse(out.contains("redefined name=" + LOOP), out);
        double[] seconds = perSecond(out);
        double before = median(seconds, 0, 2);
        double after = median(seconds, ended + 1, ended + 3);
        assertTrue(after < STRANDED * before, "as fast after the session as before it: " + after + " against " + before + "\n" + out);
    }

    /**
     * A loop whose thread waits throughout, here to enter a monitor in the loop's own body, costs
     * nothing stranded and does not keep its class from tracing: its frame is on top of its
     * thread's stack, but the thread runs no code of it.
     */
    @Test
    void aLoopBlockedInItsOwnBodyDoesNotKeepItsClassFromTracing() throws Exception {
        List<String> command = new ArrayList<>(List.of(JAVA, "-cp", CLASSES, "example.known.BlockedLoop"));
        command.addAll(1, QUIET);
        Process target = targets.start(command, "blocked.out", "ready");
        Run collect = tiprobe("collect", "-d", "1s", "--trace", "example.known.BlockedLoop::work", "--mode", "count",
                "-f", dir.resolve("blocked.txt").toString(), Long.toString(target.pid()));
        assertEquals(0, collect.exit(), collect.err());
        assertTrue(collect.err().contains("started: 1 methods instrumented"), collect.err());
        assertFalse(collect.err().contains("left unchanged"), collect.err());
    }

    @Test
    void theBudgetTakesOutAProbeWithoutStrandingTheLoopThatCallsIt() throws Exception {
        Run plain = untraced(7, "other");
        assertEquals(0, plain.exit(), plain.err());
        List<String> command = new ArrayList<>(List.of("run", "--trace", LOOP + "$Callee::work", "--mode", "count",
                "-f", dir.resolve("budget.txt").toString(), "--"));
        command.addAll(loop(7, "other"));
        Run traced = tiprobe(command.toArray(String[]::new));
        assertEquals(0, traced.exit(), traced.err());
        String report = Files.readString(dir.resolve("budget.txt"));
        assertTrue(report.contains("EnterLoop$Callee.work"), report);
        assertTrue(report.contains("probes removed to keep overhead under"), "the budget took the probe out: " + report);
        assertFalse(traced.out().contains("redefined name=" + LOOP + ","), "the loop's own class is never changed: " + traced.out());
        double untraced = median(perSecond(plain.out()), 4, 7);
        double late = median(perSecond(traced.out()), 4, 7);
        // Two processes, one after the other: on a busy machine only a stranded loop's tenfold is sure to show.
        assertTrue(late < STRANDED * untraced, "once the probe is out, the loop is compiled again: " + late + " against " + untraced
                + "\n" + traced.out());
    }

    /**
     * The budget cannot take a probe out of the class whose loop calls the method (that would
     * strand the loop), so it turns the probe off where it is: the loop pays a check a call, not
     * two clock reads (by hand: 29 to 37 ns a call timed, 1.1 ns once off, 0.6 untraced).
     */
    @Test
    void theBudgetTurnsOffATimeProbeInTheClassOfARunningLoop() throws Exception {
        List<String> command = new ArrayList<>(List.of("run", "--trace", LOOP + "::work", "--mode", "time",
                "-f", dir.resolve("off.txt").toString(), "--"));
        command.addAll(loop(7, "own"));
        Run traced = tiprobe(command.toArray(String[]::new));
        assertEquals(0, traced.exit(), traced.err());
        String report = Files.readString(dir.resolve("off.txt"));
        assertTrue(report.contains("probes removed to keep overhead under"), report);
        assertTrue(report.contains(LOOP + ": left unchanged, the probes the overhead budget chose in it turned off where they are"), report);
        assertFalse(traced.out().contains("redefined name=" + LOOP), "the loop's class is never changed: " + traced.out());
        double[] seconds = perSecond(traced.out());
        double timed = seconds[0];
        double off = median(seconds, 4, 7);
        assertTrue(off * 4 < timed, "once off, a call costs a fraction of a timed one: " + off + " ns against " + timed + "\n" + traced.out());
    }

    @Test
    void aTracedCallLeavesOutTheTimeTiprobeTookToInstrumentAClassItLoaded() throws Exception {
        Path json = dir.resolve("burn.json");
        Run run = tiprobe("run", "--trace", "example.known.FirstLoadBurner::burn;example.known.FirstLoadBurner$Parts", "--mode", "trace",
                "-f", json.toString(), "--", JAVA, "-cp", CLASSES, "example.known.FirstLoadBurner", "3");
        assertEquals(0, run.exit(), run.err());
        String text = Files.readString(json);
        List<Double> burns = durationsMillis(text, "example.known.FirstLoadBurner.burn(");
        List<Double> parts = durationsMillis(text, "example.known.FirstLoadBurner$Parts.all(");
        assertEquals(3, burns.size(), text);
        assertTrue(Pattern.compile("\"classesInstrumented\": 2,").matcher(text).find(),
                "Parts was instrumented, inside the first call: " + text.substring(0, Math.min(600, text.length())));
        // 50 ms of spinning after Parts.all, each call overshooting by as much as the machine
        // preempts it: beside two busy JVMs the first call overshot by 16 and 42 ms, the later ones
        // by up to 12. Instrumenting Parts (its 120 methods: about 150 ms on the 2-core machine of
        // BENCHMARKS.md, 400 ms beside busy JVMs; nearly all of the session's instrumenting) must add
        // none: had it been counted, the first call would be longer than 50 ms and all of it.
        double first = burns.getFirst();
        double later = Math.max(50, burns.stream().skip(1).mapToDouble(Double::doubleValue).max().orElseThrow());
        Matcher took = Pattern.compile("\"instrumentingNanos\": (\\d+)").matcher(text);
        assertTrue(took.find(), "the instrumenting time: " + text.substring(0, Math.min(600, text.length())));
        double instrumenting = Long.parseLong(took.group(1)) / 1e6;
        assertTrue(first >= 50 && first <= later + parts.getFirst() + Math.max(15, instrumenting / 2),
                "the first call took its own time: " + burns + ", Parts.all " + parts + ", instrumenting " + instrumenting + " ms");
    }

    /** The durations of the traced calls of the method whose name starts {@code method} in a JSON report, in milliseconds, in order. */
    static List<Double> durationsMillis(String json, String method) {
        Matcher m = Pattern.compile("\"method\": \"" + Pattern.quote(method) + "[^\"]*\", [^}]*?\"durationNanos\": (\\d+)").matcher(json);
        List<Double> out = new ArrayList<>();
        while (m.find()) out.add(Long.parseLong(m.group(1)) / 1e6);
        return out;
    }
}
