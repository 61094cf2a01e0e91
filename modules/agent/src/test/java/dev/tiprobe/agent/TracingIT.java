package dev.tiprobe.agent;

import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.recording.Callee;
import dev.tiprobe.recording.CapturedValue;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.report.Recording;
import dev.tiprobe.report.RecordingJson;
import dev.tiprobe.report.RecordingReader;
import dev.tiprobe.report.ValueText;
import dev.tiprobe.testing.Command;
import dev.tiprobe.testing.Command.Run;
import dev.tiprobe.testing.MiniJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The packaged agent jar in target JVMs of the test's own: {@code example.workload.Workload} runs
 * with {@code -javaagent:target/tiprobe-agent.jar=...}, and the recording it leaves, exported to
 * JSON as the command exports it, is checked against call counts known from the program (and
 * against the program's own output, which must not change).
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

    /** The JSON export of the recording the agent wrote for {@code file} (x.json: x.tpr), as the command makes it. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> json(Path file) throws IOException {
        StringWriter json = new StringWriter();
        RecordingJson.write(RecordingReader.read(AgentOptions.recordingBeside(file)), json);
        return (Map<String, Object>) MiniJson.parse(json.toString());
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> list(Map<String, Object> json, String key) {
        return (List<Map<String, Object>>) json.get(key);
    }

    /** calls of the method {@code Class::name descriptor} ({@code descriptor} null: the only one). */
    static long calls(Map<String, Object> json, String className, String name, String descriptor) {
        Map<String, Object> m = method(json, className, name, descriptor);
        assertNotNull(m, className + "::" + name + " not instrumented: " + list(json, "methods"));
        return (Long) m.get("calls");
    }

    static Map<String, Object> method(Map<String, Object> json, String className, String name, String descriptor) {
        for (Map<String, Object> m : list(json, "methods")) {
            if (m.get("class").equals(className) && m.get("method").equals(name)
                    && (descriptor == null || m.get("descriptor").equals(descriptor))) {
                return m;
            }
        }
        return null;
    }

    /** A number the workload printed after {@code label}. */
    static long printed(String output, String label) {
        int at = output.indexOf(label + " ");
        assertTrue(at >= 0, label + " not in " + output);
        return Long.parseLong(output.substring(at + label.length() + 1).split("\\s+")[0]);
    }

    Map<String, Object> traced(String mode, String extra) throws Exception {
        Path file = dir.resolve(mode + ".json");
        Run run = workload("trace=example.workload.**,mode=" + mode + ",file=" + file + extra);
        assertEquals(0, run.exit(), run.err());
        assertEquals(plainOutput, run.out(), "the program's output changed under tiprobe");
        // One line of tiprobe's at exit, where the recording went; nothing else.
        assertEquals(List.of("tiprobe: recording in " + file.resolveSibling(mode + ".tpr") + " (tiprobe report "
                + file.resolveSibling(mode + ".tpr") + " -f " + file + " makes " + file.getFileName() + ")"),
                run.err().lines().filter(l -> l.contains("tiprobe")).toList(), run.err());
        Map<String, Object> json = json(file);
        assertEquals(0L, json.get("probeFailures"));
        assertEquals(List.of(), json.get("classFailures"));
        return json;
    }

    static void assertKnownCounts(Map<String, Object> json) {
        String box = WORKLOAD + "$Box";
        assertEquals(1973, calls(json, WORKLOAD, "fib", null), "recursion");
        assertEquals(10 * 6 + 5 * 5, calls(json, WORKLOAD, "thrower", null), "exceptions caught at several depths");
        assertEquals(1, calls(json, WORKLOAD, "<init>", "()V"));
        assertEquals(1, calls(json, WORKLOAD, "<init>", "(I)V"), "this(...) call");
        assertEquals(1, calls(json, WORKLOAD, "<clinit>", null), "static initializer");
        assertEquals(1000, calls(json, WORKLOAD, "locked", null), "synchronized method");
        assertEquals(1, calls(json, WORKLOAD, "over", "(I)I"), "overload");
        assertEquals(1, calls(json, WORKLOAD, "over", "(J)J"), "overload");
        assertEquals(1, calls(json, WORKLOAD, "over", "(Ljava/lang/String;)Ljava/lang/String;"), "overload");
        assertEquals(100, calls(json, WORKLOAD, "lambda$main$0", null), "lambda body");
        assertEquals(1, calls(json, WORKLOAD + "$Shape", "describe", null), "interface default method");
        assertEquals(1, calls(json, box, "area", null));
        assertEquals(3, calls(json, box, "<init>", null));
        assertEquals(printed(plainOutput, "compares"), calls(json, box, "compareTo", "(L" + WORKLOAD.replace('.', '/') + "$Base;)I"),
                "the method behind a bridge");
        assertEquals(printed(plainOutput, "sizes"), calls(json, box, "size", null));
        assertEquals(8 * 10_000 + 1000 * 100, calls(json, WORKLOAD, "tick", null), "platform and virtual threads");
        assertEquals(1, calls(json, WORKLOAD, "main", null));
        Map<String, String> skipped = list(json, "skipped").stream().collect(Collectors.toMap(
                s -> s.get("class") + "::" + s.get("method") + s.get("descriptor"), s -> (String) s.get("reason"), (a, b) -> a));
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
        Map<String, Object> json = traced("time", "");
        assertKnownCounts(json);
        for (Map<String, Object> m : list(json, "methods")) {
            long calls = (Long) m.get("calls");
            if (calls == 0) continue;
            long min = (Long) m.get("minNanos");
            long max = (Long) m.get("maxNanos");
            long total = (Long) m.get("totalNanos");
            assertTrue(min <= max && max <= total, m.toString());
            @SuppressWarnings("unchecked")
            long inHistogram = ((List<Map<String, Object>>) m.get("histogram")).stream().mapToLong(b -> (Long) b.get("count")).sum();
            assertEquals(calls, inHistogram, "histogram of " + m.get("name"));
        }
        Map<String, Object> main = method(json, WORKLOAD, "main", null);
        Map<String, Object> fib = method(json, WORKLOAD, "fib", null);
        assertTrue((Long) main.get("totalNanos") >= (Long) fib.get("maxNanos"), "inclusive time: main contains fib(15)");

        // The clock: the CPU's counter where it is invariant (this machine's is), converted to nanoseconds.
        @SuppressWarnings("unchecked")
        String clock = ((Map<String, Object>) json.get("info")).get("clock").toString();
        String cpuinfo = Files.readString(Path.of("/proc/cpuinfo"));
        boolean invariant = cpuinfo.contains(" constant_tsc") && cpuinfo.contains(" nonstop_tsc");
        assertTrue(invariant ? clock.startsWith("time-stamp counter (") : clock.equals("System.nanoTime()"), clock);
        Map<String, Object> nap = method(json, WORKLOAD, "nap", null);
        long napNanos = (Long) nap.get("totalNanos");
        assertTrue(napNanos >= 50_000_000 && napNanos < 500_000_000, "a 50 ms sleep, in nanoseconds: " + napNanos);
        @SuppressWarnings("unchecked")
        long below = (Long) ((List<Map<String, Object>>) nap.get("histogram")).getFirst().get("belowNanos");
        assertTrue(below == 1L << 26 || below == 1L << 27, "its histogram bucket, within one of [2^25, 2^26) ns: " + below);
    }

    /** The fallback clock, asked for: System.nanoTime() measures the same 50 ms sleep, and says so. */
    @Test
    void timeModeOnSystemNanoTimeWhenAskedFor() throws Exception {
        Path file = dir.resolve("nanotime.json");
        Run run = java(List.of("-cp", TEST_CLASSES.toString(), "-Dtiprobe.clock=nanotime",
                "-javaagent:" + AGENT + "=trace=example.workload.Workload::nap,mode=time,file=" + file), WORKLOAD);
        assertEquals(0, run.exit(), run.err());
        assertEquals(plainOutput, run.out());
        Map<String, Object> json = json(file);
        @SuppressWarnings("unchecked")
        Object clock = ((Map<String, Object>) json.get("info")).get("clock");
        assertEquals("System.nanoTime() (asked for with -Dtiprobe.clock=nanotime)", clock);
        long napNanos = (Long) method(json, WORKLOAD, "nap", null).get("totalNanos");
        assertTrue(napNanos >= 50_000_000 && napNanos < 500_000_000, "a 50 ms sleep: " + napNanos);
    }

    @Test
    void traceModeCapturesArgumentsResultsAndExceptions() throws Exception {
        Map<String, Object> json = traced("trace", ",tostring,rate=0,maxcalls=400000");
        assertKnownCounts(json);
        assertEquals(0L, json.get("droppedCalls"));
        List<Map<String, Object>> calls = list(json, "calls");
        Map<String, Object> mixed = only(calls, "mixed");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> args = (List<Map<String, Object>>) mixed.get("args");
        assertEquals(List.of("a", "b", "s", "values", "o", "c"), args.stream().map(a -> a.get("name")).toList(),
                "parameter names from the class file");
        assertEquals(1L << 40, args.get(0).get("value"));
        assertEquals(2.5, args.get(1).get("value"));
        assertEquals(Map.of("text", "x".repeat(100), "length", 300L, "truncated", true), args.get(2).get("value"));
        assertEquals(Map.of("array", "int", "length", 3L, "first", List.of(1L, 2L, 3L)), args.get(3).get("value"));
        assertEquals(null, args.get(4).get("value"));
        assertEquals(Map.of("enum", WORKLOAD + "$Color", "name", "GREEN"), args.get(5).get("value"));
        assertEquals((1L << 40) + 2 + 300 + 3 + 1, mixed.get("returned"));

        @SuppressWarnings("unchecked")
        Map<String, Object> nasty = (Map<String, Object>) ((List<Map<String, Object>>) only(calls, "takesNasty").get("args")).get(0).get("value");
        assertEquals("<toString() threw java.lang.UnsupportedOperationException>", nasty.get("toString"));

        long escaped = calls.stream().filter(c -> ((String) c.get("method")).contains(".thrower(")
                && c.containsKey("thrown")).count();
        assertEquals(10 * 3 + 5 * 5, escaped, "calls that ended by throwing");
        Map<String, Object> thrown = calls.stream().filter(c -> c.containsKey("thrown")).findFirst().map(c -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> t = (Map<String, Object>) c.get("thrown");
            return t;
        }).orElseThrow();
        assertEquals(Map.of("type", "java.lang.IllegalStateException", "message", "bottom"), thrown);

        Map<String, Object> main = only(calls, "main");
        assertEquals(0L, main.get("depth"));
        assertEquals("main", main.get("thread"));
        long deepest = calls.stream().filter(c -> ((String) c.get("method")).contains(".fib(")).mapToLong(c -> (Long) c.get("depth")).max().orElseThrow();
        assertEquals(15, deepest, "fib(15) nests 14 levels below the call from main, which is at depth 1");

        // The recording itself: the same calls, values with their structure, read as text.
        Recording recording = RecordingReader.read(dir.resolve("trace.tpr"));
        assertEquals(null, recording.damage());
        assertEquals(calls.size(), recording.calls().size(), "every traced call is in the recording");
        long first = recording.calls().stream().mapToLong(Recording.Call::startEpochNanos).min().orElseThrow();
        long last = recording.calls().stream().mapToLong(Recording.Call::startEpochNanos).max().orElseThrow();
        assertTrue(last - first > 1_000_000, "calls keep the times they started at, not the time they were written: " + (last - first));
        Recording.Call mixedCall = recording.calls().stream()
                .filter(c -> recording.methodName(c.methodId()).contains(".mixed(")).findFirst().orElseThrow();
        assertEquals(List.of("a", "b", "s", "values", "o", "c"), mixedCall.argNames());
        assertEquals(List.of(Long.toString(1L << 40), "2.5", "\"" + "x".repeat(100) + "\"... (300 chars)", "int[3] {1, 2, 3}",
                "null", "Workload$Color.GREEN"), mixedCall.argValues().stream().map(ValueText::of).toList());
        assertEquals(new CapturedValue.Int((1L << 40) + 2 + 300 + 3 + 1), mixedCall.result());
        long recordedCalls = recording.stats().values().stream().mapToLong(Recording.MethodStats::calls).sum();
        long resultCalls = list(json, "methods").stream().mapToLong(m -> (Long) m.get("calls")).sum();
        assertEquals(resultCalls, recordedCalls, "the recording's method statistics are the results' counts");
        assertEquals("trace", recording.info().get(RecordingFormat.INFO_TRACE_MODE));
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
        Recording recording = RecordingReader.read(AgentOptions.recordingBeside(file));
        List<Recording.Call> kept = recording.calls();
        assertEquals(2, kept.size(), kept.toString());
        for (Recording.Call c : kept) {
            assertEquals(List.of("example.workload.SlowFirst.slow() : void", "example.workload.SlowFirst.main(java.lang.String[]) : void"),
                    java.util.Arrays.stream(c.stackFrames()).mapToObj(recording::methodName).toList(), "each slow call with its stack");
        }
        assertEquals(List.of(List.of(11, 14), List.of(11, 16)),
                kept.stream().map(c -> java.util.Arrays.stream(c.stackLines()).boxed().toList()).toList(),
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
        Map<String, Object> json = traced("trace", ",tree,rate=0,maxcalls=400000");
        assertKnownCounts(json);
        Recording recording = RecordingReader.read(dir.resolve("trace.tpr"));
        Recording.Call main = recording.calls().stream().filter(c -> recording.tracedName(c.methodId()).contains("Workload.main("))
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
        Recording.Call fib = recording.calls().stream().filter(c -> recording.tracedName(c.methodId()).contains(".fib(")
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
        for (Recording.Call c : r.calls()) {
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

    @Test
    void traceLimitsDropCallsButCountsStayExact() throws Exception {
        Map<String, Object> json = traced("trace", ",rate=200,sample=2");
        assertKnownCounts(json);
        long recorded = list(json, "calls").size();
        assertTrue(recorded <= 200 * 30, "rate cap: " + recorded);
        assertTrue((Long) json.get("droppedCalls") > 100_000, "dropped: " + json.get("droppedCalls"));
    }

    static Map<String, Object> only(List<Map<String, Object>> calls, String method) {
        List<Map<String, Object>> found = calls.stream().filter(c -> ((String) c.get("method")).contains("." + method + "(")).toList();
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
        assertEquals(List.of(), json(file).get("methods"));
    }

    @Test
    void jdkClassesLoadedBeforeTheAgentAreTracedWhenTheFilterNamesThem() throws Exception {
        Path file = dir.resolve("jdk.json");
        List<String> options = List.of("-cp", TEST_CLASSES.toString(),
                "-javaagent:" + AGENT + "=trace=java.util.ArrayList::add;java.util.HashMap::put,mode=time,file=" + file);
        Run run = java(options, "example.workload.JdkUser");
        assertEquals(0, run.exit(), run.err());
        assertEquals("1000 500", run.out().strip());
        Map<String, Object> json = json(file);
        assertEquals(List.of(), json.get("classFailures"));
        assertTrue(calls(json, "java.util.ArrayList", "add", "(Ljava/lang/Object;)Z") >= 1000, list(json, "methods").toString());
        assertTrue(calls(json, "java.util.HashMap", "put", null) >= 500, list(json, "methods").toString());
        assertTrue(((String) method(json, "java.util.HashMap", "put", null).get("name")).startsWith("java.base/java.util.HashMap.put("));
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
