package dev.tiprobe.agent;

import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.recording.Allocation;
import dev.tiprobe.recording.Call;
import dev.tiprobe.recording.Callee;
import dev.tiprobe.recording.CapturedValue;
import dev.tiprobe.recording.ClassEvent;
import dev.tiprobe.recording.MethodStats;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.Signature;
import dev.tiprobe.recording.Skipped;
import dev.tiprobe.report.Recording;
import dev.tiprobe.report.RecordingReader;
import dev.tiprobe.report.ValueText;
import dev.tiprobe.testing.Command;
import dev.tiprobe.testing.Command.Run;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The packaged agent jar in target JVMs of the test's own: {@code example.workload.Workload} runs
 * with {@code -javaagent:target/tiprobe-agent.jar=...}, and the recording it leaves, read through
 * the typed model every export is made from, is checked against call counts known from the
 * program (and against the program's own output, which must not change).
 */
class TracingIT {
    static final Path TARGET = Path.of("target");
    static final Path AGENT = TARGET.resolve("tiprobe-agent.jar");
    static final Path TEST_CLASSES = TARGET.resolve("test-classes");
    static final String WORKLOAD = "example.workload.Workload";

    @TempDir
    Path dir;

    static String plainOutput;

    /**
     * {@code java <options> <main> <args>} with class sharing off (premain appends the probe jar to
     * the boot class path: CDS would warn) and native access for the agent.
     */
    static Run java(List<String> options, String main, String... args) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(List.of("-Xshare:off", "--enable-native-access=ALL-UNNAMED"));
        all.addAll(options);
        return Command.java(all, main, args);
    }

    static Run workload(String agentOptions) throws IOException, InterruptedException {
        List<String> options = new ArrayList<>(List.of("-cp", TEST_CLASSES.toString()));
        if (agentOptions != null) options.add(0, "-javaagent:" + AGENT + "=" + agentOptions);
        return java(options, WORKLOAD);
    }

    @BeforeAll
    static void runWithoutTiprobe() throws Exception {
        assertTrue(Files.isRegularFile(AGENT), "build the agent jar first (mvn package)");
        Run plain = workload(null);
        assertEquals(0, plain.exit(), plain.err());
        plainOutput = plain.out();
    }

    /** The recording the agent wrote for {@code file} (x.json: x.tpr), read as the command reads it, undamaged. */
    static Recording recording(Path file) throws IOException {
        Recording r = RecordingReader.read(AgentOptions.recordingBeside(file));
        assertNull(r.damage(), "the recording is whole");
        return r;
    }

    /** The figures of the traced method {@code Class::name descriptor} ({@code descriptor} null: the only one of that name). */
    static MethodStats stats(Recording r, String className, String name, String descriptor) {
        List<MethodStats> found = r.stats().values().stream().filter(m -> {
            Signature sig = r.tracing().signatures().get(m.methodId());
            return sig != null && sig.className().equals(className) && sig.methodName().equals(name)
                    && (descriptor == null || sig.descriptor().equals(descriptor));
        }).toList();
        assertEquals(1, found.size(), className + "::" + name + " instrumented once: " + r.tracing().signatures().values());
        return found.getFirst();
    }

    /** Calls of the method {@code Class::name descriptor} ({@code descriptor} null: the only one of that name). */
    static long calls(Recording r, String className, String name, String descriptor) {
        return stats(r, className, name, descriptor).calls();
    }

    /** A number the workload printed after {@code label}. */
    static long printed(String output, String label) {
        int at = output.indexOf(label + " ");
        assertTrue(at >= 0, label + " not in " + output);
        return Long.parseLong(output.substring(at + label.length() + 1).split("\\s+")[0]);
    }

    Recording traced(String mode, String extra) throws Exception {
        Path file = dir.resolve(mode + ".json");
        Run run = workload("trace=example.workload.**,mode=" + mode + ",file=" + file + extra);
        assertEquals(0, run.exit(), run.err());
        assertEquals(plainOutput, run.out(), "the program's output changed under tiprobe");
        // One line of tiprobe's at exit, where the recording went; nothing else.
        assertEquals(List.of("tiprobe: recording in " + file.resolveSibling(mode + ".tpr") + " (tiprobe report "
                + file.resolveSibling(mode + ".tpr") + " -f " + file + " makes " + file.getFileName() + ")"),
                run.err().lines().filter(l -> l.contains("tiprobe")).toList(), run.err());
        Recording r = recording(file);
        assertEquals(0, r.infoNumber(RecordingFormat.INFO_PROBE_FAILURES));
        assertEquals(List.of(), r.tracing().classFailures());
        return r;
    }

    static void assertKnownCounts(Recording r) {
        String box = WORKLOAD + "$Box";
        assertEquals(1973, calls(r, WORKLOAD, "fib", null), "recursion");
        assertEquals(10 * 6 + 5 * 5, calls(r, WORKLOAD, "thrower", null), "exceptions caught at several depths");
        assertEquals(1, calls(r, WORKLOAD, "<init>", "()V"));
        assertEquals(1, calls(r, WORKLOAD, "<init>", "(I)V"), "this(...) call");
        assertEquals(1, calls(r, WORKLOAD, "<clinit>", null), "static initializer");
        assertEquals(1000, calls(r, WORKLOAD, "locked", null), "synchronized method");
        assertEquals(1, calls(r, WORKLOAD, "over", "(I)I"), "overload");
        assertEquals(1, calls(r, WORKLOAD, "over", "(J)J"), "overload");
        assertEquals(1, calls(r, WORKLOAD, "over", "(Ljava/lang/String;)Ljava/lang/String;"), "overload");
        assertEquals(100, calls(r, WORKLOAD, "lambda$main$0", null), "lambda body");
        assertEquals(1, calls(r, WORKLOAD + "$Shape", "describe", null), "interface default method");
        assertEquals(1, calls(r, box, "area", null));
        assertEquals(3, calls(r, box, "<init>", null));
        assertEquals(printed(plainOutput, "compares"), calls(r, box, "compareTo", "(L" + WORKLOAD.replace('.', '/') + "$Base;)I"),
                "the method behind a bridge");
        assertEquals(printed(plainOutput, "sizes"), calls(r, box, "size", null));
        assertEquals(8 * 10_000 + 1000 * 100, calls(r, WORKLOAD, "tick", null), "platform and virtual threads");
        assertEquals(1, calls(r, WORKLOAD, "main", null));
        Map<String, String> skipped = r.tracing().skipped().stream().collect(Collectors.toMap(
                s -> s.className() + "::" + s.methodName() + s.descriptor(), Skipped::reason, (a, b) -> a));
        assertTrue(skipped.get(WORKLOAD + "::nativeMethod()V").startsWith("native"), skipped.toString());
        assertTrue(skipped.get(WORKLOAD + "$Shape::area()D").startsWith("abstract"), skipped.toString());
        assertTrue(skipped.get(box + "::compareTo(Ljava/lang/Object;)I").startsWith("bridge"), skipped.toString());
    }

    @Test
    void countModeCountsEveryCallExactly() throws Exception {
        assertKnownCounts(traced("count", ""));
    }

    @Test
    void timeModeCountsAndTimesEveryExitIncludingExceptions() throws Exception {
        Recording r = traced("time", "");
        assertKnownCounts(r);
        for (MethodStats m : r.stats().values()) {
            if (m.calls() == 0) continue;
            String name = r.tracedName(m.methodId());
            assertTrue(m.timed(), name);
            assertTrue(m.minNanos() <= m.maxNanos() && m.maxNanos() <= m.totalNanos(), name + ": " + m);
            assertEquals(m.calls(), Arrays.stream(m.histogram()).sum(), "histogram of " + name);
        }
        assertTrue(stats(r, WORKLOAD, "main", null).totalNanos() >= stats(r, WORKLOAD, "fib", null).maxNanos(),
                "inclusive time: main contains fib(15)");

        // The clock: the CPU's counter where it is invariant (this machine's is), converted to nanoseconds.
        String clock = r.info().get(RecordingFormat.INFO_CLOCK);
        String cpuinfo = Files.readString(Path.of("/proc/cpuinfo"));
        boolean invariant = cpuinfo.contains(" constant_tsc") && cpuinfo.contains(" nonstop_tsc");
        assertTrue(invariant ? clock.startsWith("time-stamp counter (") : clock.equals("System.nanoTime()"), clock);
        MethodStats nap = stats(r, WORKLOAD, "nap", null);
        assertTrue(nap.totalNanos() >= 50_000_000 && nap.totalNanos() < 500_000_000, "a 50 ms sleep, in nanoseconds: " + nap.totalNanos());
        int bucket = java.util.stream.IntStream.range(0, nap.histogram().length).filter(i -> nap.histogram()[i] > 0).findFirst().orElseThrow();
        assertTrue(bucket == 25 || bucket == 26, "its histogram bucket, within one of [2^25, 2^26) ns: 2^" + bucket);
    }

    /** The fallback clock, asked for: System.nanoTime() measures the same 50 ms sleep, and says so. */
    @Test
    void timeModeOnSystemNanoTimeWhenAskedFor() throws Exception {
        Path file = dir.resolve("nanotime.json");
        Run run = java(List.of("-cp", TEST_CLASSES.toString(), "-Dtiprobe.clock=nanotime",
                "-javaagent:" + AGENT + "=trace=example.workload.Workload::nap,mode=time,file=" + file), WORKLOAD);
        assertEquals(0, run.exit(), run.err());
        assertEquals(plainOutput, run.out());
        Recording r = recording(file);
        assertEquals("System.nanoTime() (asked for with -Dtiprobe.clock=nanotime)", r.info().get(RecordingFormat.INFO_CLOCK));
        long napNanos = stats(r, WORKLOAD, "nap", null).totalNanos();
        assertTrue(napNanos >= 50_000_000 && napNanos < 500_000_000, "a 50 ms sleep: " + napNanos);
    }

    @Test
    void traceModeCapturesArgumentsResultsAndExceptions() throws Exception {
        Recording r = traced("trace", ",tostring,rate=0,maxcalls=400000");
        assertKnownCounts(r);
        assertEquals(0, r.infoNumber(RecordingFormat.INFO_DROPPED_CALLS));
        List<Call> calls = r.calls();
        Map<Integer, Long> kept = calls.stream().collect(Collectors.groupingBy(Call::methodId, Collectors.counting()));
        Map<String, String> missing = new java.util.TreeMap<>();
        for (MethodStats m : r.stats().values()) {
            long inRecording = kept.getOrDefault(m.methodId(), 0L);
            if (inRecording != m.calls()) missing.put(r.tracedName(m.methodId()), inRecording + " of " + m.calls());
        }
        assertEquals(Map.of(), missing, "nothing dropped: every call counted is in the recording");

        Call mixed = only(r, "mixed");
        assertEquals(List.of("a", "b", "s", "values", "o", "c"), mixed.argNames(), "parameter names from the class file");
        assertEquals(List.of(new CapturedValue.Int(1L << 40), new CapturedValue.Float64(2.5), new CapturedValue.Text("x".repeat(100), 300),
                new CapturedValue.Array("int", 3, List.of(new CapturedValue.Int(1), new CapturedValue.Int(2), new CapturedValue.Int(3))),
                new CapturedValue.Null(), new CapturedValue.EnumConstant(WORKLOAD + "$Color", "GREEN")), mixed.argValues());
        assertEquals(List.of(Long.toString(1L << 40), "2.5", "\"" + "x".repeat(100) + "\"... (300 chars)", "int[3] {1, 2, 3}",
                "null", "Workload$Color.GREEN"), mixed.argValues().stream().map(ValueText::of).toList(), "as text reports show them");
        assertEquals(new CapturedValue.Int((1L << 40) + 2 + 300 + 3 + 1), mixed.result());

        CapturedValue nasty = only(r, "takesNasty").argValues().getFirst();
        assertEquals("<toString() threw java.lang.UnsupportedOperationException>",
                nasty instanceof CapturedValue.Obj o ? o.text() : nasty.toString());
        assertEquals(0, calls(r, WORKLOAD + "$Nasty", "toString", null), "tiprobe's call of toString() is not counted as the program's");

        long escaped = calls.stream().filter(c -> r.tracedName(c.methodId()).contains(".thrower(") && c.threw()).count();
        assertEquals(10 * 3 + 5 * 5, escaped, "calls that ended by throwing");
        assertEquals(new CapturedValue.Thrown("java.lang.IllegalStateException", "bottom"),
                calls.stream().filter(Call::threw).findFirst().orElseThrow().result());

        Call main = only(r, "main");
        assertEquals(0, main.depth());
        assertEquals("main", r.threads().get(main.threadId()));
        int deepest = calls.stream().filter(c -> r.tracedName(c.methodId()).contains(".fib(")).mapToInt(Call::depth).max().orElseThrow();
        assertEquals(15, deepest, "fib(15) nests 14 levels below the call from main, which is at depth 1");

        long first = calls.stream().mapToLong(Call::startEpochNanos).min().orElseThrow();
        long last = calls.stream().mapToLong(Call::startEpochNanos).max().orElseThrow();
        assertTrue(last - first > 1_000_000, "calls keep the times they started at, not the time they were written: " + (last - first));
        assertEquals("trace", r.info().get(RecordingFormat.INFO_TRACE_MODE));
    }

    /**
     * A call kept by its duration has its stack, its method on top, also when it ends in the
     * program's first moments, before the agent has linked JVMTI (premain has returned and the
     * agent's walker is not yet installed): Java's frames then, named as the agent's own walks
     * name them.
     */
    @Test
    void aSlowCallAtTheProgramsStartKeepsItsStack() throws Exception {
        Path file = dir.resolve("slow.json");
        Run run = java(List.of("-cp", TEST_CLASSES.toString(), "-javaagent:" + AGENT + "=trace=example.workload.SlowFirst::slow,mode=trace,"
                + "minduration=20ms,file=" + file), "example.workload.SlowFirst");
        assertEquals(0, run.exit(), run.err());
        assertEquals("slept twice", run.out().strip());
        Recording recording = recording(file);
        List<Call> kept = recording.calls();
        assertEquals(2, kept.size(), kept.toString());
        for (Call c : kept) {
            assertEquals(List.of("example.workload.SlowFirst.slow() : void", "example.workload.SlowFirst.main(java.lang.String[]) : void"),
                    Arrays.stream(c.stackFrames()).mapToObj(recording::methodName).toList(), "each slow call with its stack");
        }
        assertEquals(List.of(List.of(11, 14), List.of(11, 16)),
                kept.stream().map(c -> Arrays.stream(c.stackLines()).boxed().toList()).toList(),
                "with their lines: slow()'s return, and main's first and second call of it");
    }

    /**
     * With {@code tree}, every traced call also times the call sites of its body: the workload's
     * shapes (constructors with this(), recursion, exceptions caught at several depths, a
     * synchronized method, lambdas, virtual threads) run as before with the same counts, and each
     * call names its callees with how often each site ran and how long it took, a callee that
     * threw included.
     */
    @Test
    void traceModeWithATreeTimesEachCallsCallSites() throws Exception {
        Recording recording = traced("trace", ",tree,rate=0,maxcalls=400000");
        assertKnownCounts(recording);
        Call main = recording.calls().stream().filter(c -> recording.tracedName(c.methodId()).contains("Workload.main("))
                .findFirst().orElseThrow();
        Map<String, List<Callee>> byMethod = main.callees().stream().collect(Collectors.groupingBy(Callee::method));
        Callee nap = byMethod.get(WORKLOAD + ".nap() : void").getFirst();
        assertEquals(1, nap.calls());
        assertTrue(nap.nanos() >= 50_000_000, "nap sleeps 50 ms: " + nap);
        assertEquals(List.of(10L, 5L), byMethod.get(WORKLOAD + ".thrower(int, int) : int").stream().map(Callee::calls).sorted(Comparator.reverseOrder()).toList(),
                "two call sites: ten calls that returned, five that threw (each closed at the next site)");
        assertEquals(1000, byMethod.get(WORKLOAD + ".locked(int) : int").getFirst().calls());
        assertTrue(byMethod.containsKey("java.io.PrintStream.println(java.lang.String) : void"), "JDK callees by the type the code names: " + byMethod.keySet());
        assertTrue(main.callees().stream().mapToLong(Callee::nanos).sum() <= main.durationNanos(), "callees within the call");
        assertEquals(main.callees().stream().sorted(Comparator.comparingLong(Callee::nanos).reversed()).toList(), main.callees(), "slowest first");
        Call fib = recording.calls().stream().filter(c -> recording.tracedName(c.methodId()).contains(".fib(")
                && c.depth() == 1).findFirst().orElseThrow();
        assertEquals(List.of(WORKLOAD + ".fib(int) : int", WORKLOAD + ".fib(int) : int"), fib.callees().stream().map(Callee::method).toList(),
                "fib(15) calls fib(14) and fib(13), each once: " + fib.callees());
    }

    /**
     * Trace mode shows objects by their fields, read without running the application's code: a
     * plain class with private fields (two levels with maxdepth=2), a record, a cycle named and
     * not followed, a huge array by its first elements, an object whose toString() and hashCode()
     * throw (never called), a JDK class in a package java.base opens to nobody, and an object of
     * a class whose loader is collected afterwards (capturing kept nothing of it alive).
     */
    @Test
    void traceModeShowsObjectsByTheirFields() throws Exception {
        String main = "example.workload.Objects";
        Run plain = java(List.of("-cp", TEST_CLASSES.toString()), main);
        assertEquals(0, plain.exit(), plain.err());
        Path file = dir.resolve("objects.tpr");
        Run run = java(List.of("-cp", TEST_CLASSES.toString(),
                "-javaagent:" + AGENT + "=trace=example.workload.Objects::*,mode=trace,rate=0,maxdepth=2,file=" + file), main);
        assertEquals(0, run.exit(), run.err());
        assertEquals(plain.out(), run.out(), "the program's output, toString() and hashCode() calls included, is unchanged");
        assertTrue(run.out().contains("toString 0 hashCode 0"), run.out());
        assertTrue(run.err().contains("loader collected true"), "nothing captured keeps the throwaway loader alive: " + run.err());
        Recording r = RecordingReader.read(file);
        Map<String, String> shown = new java.util.HashMap<>();
        for (Call c : r.calls()) {
            String head = r.methodName(c.methodId()).substring(0, r.methodName(c.methodId()).indexOf('('));
            String method = head.substring(head.lastIndexOf('.') + 1);
            if (!c.argValues().isEmpty()) shown.put(method, ValueText.of(c.argValues().getFirst()));
        }
        assertEquals("Objects$Order{id=5, customer=Objects$Customer{id=\"c-3\", visits=2}, total=12.50,"
                + " lines=ImmutableCollections$ListN(3)}", shown.get("checkout"));
        assertEquals("Objects$Point{x=3, y=4}", shown.get("place"));
        assertTrue(shown.get("walk").matches("Objects\\$Node\\{name=\"a\", next=Objects\\$Node\\{name=\"b\","
                + " next=Objects\\$Node@[0-9a-f]+ \\(seen above\\)}}"), shown.get("walk"));
        assertEquals("int[1000000] {0, 0, 0, 0, 0, 0, 0, 0, ...}", shown.get("sum"));
        assertEquals("Objects$Bomb{fuse=3}", shown.get("inspect"));
        assertEquals("AtomicInteger{value=41}", shown.get("count"), "a package java.base keeps closed, opened to the probe alone");
        assertEquals("Objects$Holder{thing=Gone{id=7}}", shown.get("hold"), "a class collected since is still named");
    }

    /**
     * tiprobe's own work on the program's threads stays out of the program's views: the objects
     * trace mode's probes allocate for the calls they keep ({@code dev.tiprobe.probe.Call}) are no
     * allocation of the traced methods, and the classes tiprobe and JFR load for the session are
     * no class loads of the program's.
     */
    @Test
    void tiprobesOwnAllocationsAndClassesStayOutOfTheProgramsViews() throws Exception {
        Recording r = traced("trace", ",rate=0,alloc=1k,allocoverhead=0,interval=10ms");
        assertTrue(r.events().allocations().size() > 100, "allocation samples: " + r.events().allocations().size());
        for (Allocation a : r.events().allocations()) {
            assertFalse(r.typeName(a.typeId()).startsWith("dev.tiprobe."), "tiprobe's object in the alloc view: " + r.typeName(a.typeId()));
        }
        for (ClassEvent e : r.classEvents()) {
            assertFalse(e.className().startsWith("dev.tiprobe.") || e.className().startsWith("jdk.jfr."),
                    "a class of tiprobe's work among the program's: " + e.className());
        }
        // The program's own loads are listed: SamplingIT counts them under class churn. Here the
        // program loads its classes in its first second, which a busy machine's session may start after.
    }

    @Test
    void traceLimitsDropCallsButCountsStayExact() throws Exception {
        Recording r = traced("trace", ",rate=200,onein=2");
        assertKnownCounts(r);
        long recorded = r.calls().size();
        assertTrue(recorded <= 200 * 30, "rate cap: " + recorded);
        long dropped = r.infoNumber(RecordingFormat.INFO_DROPPED_CALLS);
        assertTrue(dropped > 100_000, "dropped: " + dropped);
    }

    /** The one traced call of the workload's method {@code method}. */
    static Call only(Recording r, String method) {
        List<Call> found = r.calls().stream().filter(c -> r.tracedName(c.methodId()).contains("." + method + "(")).toList();
        assertEquals(1, found.size(), method + ": " + found);
        return found.getFirst();
    }

    @Test
    void aMalformedFilterIsOneLineAndTheProgramRunsUntraced() throws Exception {
        Path file = dir.resolve("bad.json");
        Run run = workload("trace=example.workload.Workload::fib(I,mode=count,file=" + file);
        assertEquals(0, run.exit());
        assertEquals(plainOutput, run.out());
        List<String> lines = run.err().lines().filter(l -> l.startsWith("tiprobe:")).toList();
        assertEquals(1, lines.size(), run.err());
        assertTrue(lines.getFirst().contains("missing ')' at position 32"), lines.getFirst());
        assertFalse(Files.exists(AgentOptions.recordingBeside(file)), "nothing written");
    }

    @Test
    void anUnwritableOutputIsReportedAtStartAndTheProgramRuns() throws Exception {
        Path file = dir.resolve("no-such-dir").resolve("out.json");
        Run run = workload("trace=example.workload.**,file=" + file);
        assertEquals(0, run.exit());
        assertEquals(plainOutput, run.out());
        assertTrue(run.err().contains("tiprobe: cannot write " + AgentOptions.recordingBeside(file) + ": no such directory"), run.err());
    }

    @Test
    void aFilterThatMatchesNothingIsReportedNotAnError() throws Exception {
        Path file = dir.resolve("none.json");
        Run run = workload("trace=com.nowhere.**,file=" + file);
        assertEquals(0, run.exit());
        assertEquals(plainOutput, run.out());
        assertTrue(run.err().contains("tiprobe: the filter 'com.nowhere.**' matched no method"), run.err());
        assertEquals(Map.of(), recording(file).stats());
    }

    @Test
    void jdkClassesLoadedBeforeTheAgentAreTracedWhenTheFilterNamesThem() throws Exception {
        Path file = dir.resolve("jdk.json");
        List<String> options = List.of("-cp", TEST_CLASSES.toString(),
                "-javaagent:" + AGENT + "=trace=java.util.ArrayList::add;java.util.HashMap::put,mode=time,file=" + file);
        Run run = java(options, "example.workload.JdkUser");
        assertEquals(0, run.exit(), run.err());
        assertEquals("1000 500", run.out().strip());
        Recording r = recording(file);
        assertEquals(List.of(), r.tracing().classFailures());
        assertTrue(calls(r, "java.util.ArrayList", "add", "(Ljava/lang/Object;)Z") >= 1000, r.tracing().signatures().values().toString());
        assertTrue(calls(r, "java.util.HashMap", "put", null) >= 500, r.tracing().signatures().values().toString());
        assertTrue(r.tracedName(stats(r, "java.util.HashMap", "put", null).methodId()).startsWith("java.base/java.util.HashMap.put("));
    }

    @Test
    void inProcessTracingRetransformsLoadedClassesAndStopRestoresThem() throws Exception {
        Run run = java(List.of("-cp", AGENT + java.io.File.pathSeparator + TEST_CLASSES), "example.workload.InProcess",
                TEST_CLASSES.toAbsolutePath().toString());
        assertEquals(0, run.exit(), run.out() + run.err());
        List<String> lines = run.out().lines().toList();
        assertTrue(lines.contains("count example.workload.Workload::fib 177"), run.out());
        assertTrue(lines.contains("count example.workload.Plugin::run 3"), "app loader's Plugin: " + run.out());
        assertTrue(lines.contains("count example.workload.Plugin::run 5"), "throwaway loader's Plugin: " + run.out());
        assertTrue(lines.contains("failures []"), run.out());
        assertTrue(lines.contains("stopped true 185 probe 185"), "no probe runs after stop: " + run.out());
        assertTrue(lines.contains("second 5"), "a second session starts afresh: " + run.out());
    }

    @Test
    void aMethodRunningWhileItsClassIsRetransformedStillHasANameInStackWalks() throws Exception {
        Run run = java(List.of("-cp", AGENT + java.io.File.pathSeparator + TEST_CLASSES), "example.workload.ObsoleteFrame");
        assertEquals(0, run.exit(), run.out() + run.err());
        List<String> frames = run.out().lines().filter(l -> l.startsWith("frame ")).toList();
        assertTrue(frames.contains("frame true hold"), "the old version of hold, named: " + run.out());
        assertTrue(frames.stream().noneMatch(l -> l.endsWith(" null")), "every frame resolves: " + run.out());
    }
}
