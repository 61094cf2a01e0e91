package dev.tiprobe.options;

import dev.tiprobe.options.AgentOptions.SampleMode;
import dev.tiprobe.options.AgentOptions.TraceMode;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AgentOptionsTest {
    /** What the command formats is what the agent parses: every setting, defaults or not. */
    @Test
    void everySettingSurvivesFormatAndParse() {
        List<String> sessions = List.of(
                "trace=com.foo.**;!com.foo.internal.**,overhead=0,file=/tmp/a-%p.json",
                "trace=@org.example.Timed,mode=trace,rate=0,onein=10,maxcalls=5000,maxstring=40,maxelements=3,tostring,maxdepth=2,"
                        + "maxfields=4,minduration=15ms,overhead=2.5,file=/tmp/b.json,recording=/tmp/b-%t.tpr",
                "trace=a.B::sum(II)I,mode=time,interval=20ms,samplemode=cpu,depth=64,threads=worker-*;main",
                "interval=1s,samplemode=wall,file=x.json",
                "interval=10ms,recompile=false,file=no-recompile.tpr",
                "trace=a.*,overhead=7,file=y.json",
                "trace=shop.Shop::checkout,mode=trace,where=order.qty > 2 && (duration > 1ms || thread ~ 'clerk-*'),file=w.tpr",
                "trace=shop.Shop::checkout,mode=trace,tree,file=t.tpr",
                "interval=10ms,loop=60s,keep=5,file=/p/profile-%t.pb.gz",
                "interval=10ms,samplemode=wall,loop=1500ms,file=/p/r-%t.tpr",
                "interval=10ms,samplemode=wall,maxmemory=48m,file=m.tpr",
                "alloc=512k,live,allocoverhead=0.5,lock=0,quiet,file=a.tpr");
        for (String session : sessions) {
            AgentOptions o = AgentOptions.parse(session);
            assertEquals(o, AgentOptions.parse(o.format()), o.format());
        }
        AgentOptions all = AgentOptions.parse(sessions.get(1));
        assertEquals(List.of(0L, 10, 5000, 40, 3, true, 2, 4, 15_000_000L), List.of(all.tracing().limits().perSecond(),
                all.tracing().limits().everyNth(), all.tracing().limits().maxCalls(), all.tracing().limits().maxString(),
                all.tracing().limits().maxElements(), all.tracing().limits().callToString(), all.tracing().limits().maxDepth(),
                all.tracing().limits().maxFields(), all.tracing().limits().minNanos()), "each limit read as given");
        assertEquals(Duration.ofMillis(1500), AgentOptions.parse(sessions.get(9)).loop().period());
        assertEquals(48L << 20, AgentOptions.parse(sessions.get(10)).maxMemory(1L << 40));
    }

    /** A switch given off where it is off by default is as if not given: the settings are equal, and so are their strings. */
    @Test
    void aSwitchGivenOffIsAsIfNotGiven() {
        for (String off : List.of("tostring=false", "tree=false")) {
            AgentOptions o = AgentOptions.parse("trace=a.*,mode=trace," + off);
            assertEquals(AgentOptions.parse("trace=a.*,mode=trace"), o, off);
            assertEquals(o, AgentOptions.parse(o.format()), off);
            assertEquals(o.hashCode(), AgentOptions.parse(o.format()).hashCode(), off);
        }
        AgentOptions quiet = AgentOptions.parse("interval=10ms,quiet=false,alloc=1m,live=false");
        assertEquals(AgentOptions.parse("interval=10ms,alloc=1m"), quiet);
        AgentOptions noRecompile = AgentOptions.parse("interval=10ms,recompile=false");
        assertEquals("interval=10ms,recompile=false", noRecompile.format().replaceFirst("^file=[^,]*,", ""), "on by default: off is kept");
    }

    /** A new output is read and checked as the option is, with the session as a whole. */
    @Test
    void aNewFileIsCheckedAsTheOptionIs() {
        AgentOptions loop = AgentOptions.parse("interval=10ms,loop=60s,file=/p/x-%t.tpr");
        assertEquals("a loop writes a file per period: put %t (the time) in the file's name, e.g. profiles/cpu-%t.pb.gz",
                assertThrows(IllegalArgumentException.class, () -> loop.withFile("/p/x.tpr")).getMessage());
        assertEquals("/p/y-%t.tpr", loop.withFile("/p/y-%t.tpr").file());
    }

    /** Tracing made in code reads its filter as the option does: a ',' outside a parameter list is refused, not read as another option. */
    @Test
    void tracingMadeInCodeReadsItsFilterAsTheOptionDoes() {
        assertEquals(0, AgentOptions.Tracing.of("a.B::c(int, long)", TraceMode.COUNT).overheadBudget(), "no budget");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentOptions.Tracing.of("a.*,interval=1ms", TraceMode.COUNT))
                .getMessage().startsWith("','"));
    }

    /** An option read by its table entry, the way a new option is read where it is used. */
    @Test
    void everyOptionIsReadByItsEntry() {
        AgentOptions o = AgentOptions.parse("interval=20ms,depth=64,alloc=1m,file=x.tpr");
        assertEquals(Duration.ofMillis(20), o.<Duration>get(Setting.INTERVAL));
        assertEquals(64, o.<Integer>get(Setting.DEPTH));
        assertEquals(o.sampling().depth(), o.<Integer>get(Setting.DEPTH), "the engines' views read the same values");
        assertEquals(SampleMode.CPU, o.<SampleMode>get(Setting.SAMPLE_MODE), "a default, where it is not given");
        assertNull(o.get(Setting.LOCK), "no value where none is given and the table has no default");
        assertNull(o.locks(), "and no engine");
        assertTrue(o.on(Setting.RECOMPILE), "a switch on by default");
        assertEquals(Path.of("/t/w.tpr"), Path.of(o.withFile("/t/w.tpr").file()));
        assertEquals("','" , assertThrows(IllegalArgumentException.class, () -> o.withFile("a,b.tpr")).getMessage().substring(0, 3),
                "a new file is read as the option is");
    }

    /** A condition keeps traced calls by their values: it needs trace mode, and a malformed one is refused with its position. */
    @Test
    void aConditionNeedsTraceModeAndParses() {
        assertEquals("where is for trace mode: it needs trace=<filter> and mode=trace",
                assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("trace=a.B::c,where=threw")).getMessage());
        assertEquals("where is for trace mode: it needs trace=<filter> and mode=trace",
                assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("interval=10ms,where=threw")).getMessage());
        assertEquals("'=' compares as '==' at position 8 of 'args[0] = 1'",
                assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("trace=a.B::c,mode=trace,where=args[0] = 1")).getMessage());
    }

    /** A call tree times the callees of traced calls: trace mode, and a filter, or it is refused. */
    @Test
    void aCallTreeNeedsTraceMode() {
        assertEquals("tree is for trace mode: it needs trace=<filter> and mode=trace",
                assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("trace=a.B::c,mode=time,tree")).getMessage());
        assertEquals("tree is for trace mode: it needs trace=<filter> and mode=trace",
                assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("interval=10ms,tree")).getMessage());
        assertTrue(AgentOptions.parse("trace=a.B::c,mode=trace,tree").tracing().tree());
    }

    /** A filter naming what the probe runs on is refused by name, by the command and by -javaagent alike. */
    @Test
    void aFilterNamingWhatTheProbeRunsOnIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("trace=java.lang.String::length"));
        assertEquals("java.lang.String cannot be traced: the probe itself runs on it", e.getMessage());
    }

    /** A filter's Java parameter list keeps its commas: options split only outside parentheses. */
    @Test
    void aParameterListsCommasStayInItsFilter() {
        AgentOptions o = AgentOptions.parse("trace=T::put(String, int);T::f(Ljava/lang/String;)I,mode=count,file=x.json");
        assertEquals("T::put(String, int);T::f(Ljava/lang/String;)I", o.tracing().filter().toString());
        assertEquals(TraceMode.COUNT, o.tracing().mode());
        assertEquals(o, AgentOptions.parse(o.format()), o.format());
        assertEquals(List.of("a=(b,c)", "d"), AgentOptions.split("a=(b,c),d"));
        assertEquals(List.of("file=x", "interval=10ms"), AgentOptions.split("file=x,interval=10ms,"), "a trailing ',' as before");
        assertEquals("missing ')' at position 13 of 'T::put(String'",
                assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("trace=T::put(String,mode=count")).getMessage(),
                "an unclosed list: the other options stay options, the filter says what it misses");
    }

    /** Allocation and lock profiling read sizes and thresholds as async-profiler's flags do, and survive formatting. */
    @Test
    void allocationAndLockOptionsRoundTrip() {
        AgentOptions o = AgentOptions.parse("alloc=512k,live,lock=1ms,file=x.tpr");
        assertEquals(512 * 1024, o.allocations().intervalBytes());
        assertTrue(o.allocations().live());
        assertEquals(0.01, o.allocations().overheadBudget(), "the default budget");
        assertEquals(Duration.ofMillis(1), o.locks().threshold());
        assertEquals(o, AgentOptions.parse(o.format()), o.format());
        assertEquals(2L << 20, AgentOptions.parse("alloc=2m").allocations().intervalBytes());
        assertEquals(Duration.ZERO, AgentOptions.parse("lock=0").locks().threshold());
        assertEquals(Duration.ofNanos(500_000), AgentOptions.parse("lock=500us").locks().threshold());
        assertTrue(AgentOptions.parse("interval=10ms,alloc=1m").profiling());
        AgentOptions budget = AgentOptions.parse("alloc=512k,allocoverhead=0.5");
        assertEquals(0.005, budget.allocations().overheadBudget(), 1e-12);
        assertEquals(budget, AgentOptions.parse(budget.format()), budget.format());
        assertEquals(0.0, AgentOptions.parse("alloc=512k,allocoverhead=0").allocations().overheadBudget());
        assertEquals("allocoverhead must be a percentage such as 5 (0: no limit), not 'lots'",
                assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("alloc=512k,allocoverhead=lots")).getMessage());
    }

    /** A loop rotates profiles, each named by its time: anything else is refused with the reason. */
    @Test
    void aLoopNeedsSamplingAlone() {
        assertEquals("loop is for rotating profiles: it needs interval=, alloc= or lock=, and no trace=",
                assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("trace=a.*,interval=10ms,loop=60s,file=x-%t.tpr")).getMessage());
        assertEquals("a loop writes a file per period: put %t (the time) in the file's name, e.g. profiles/cpu-%t.pb.gz",
                assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("interval=10ms,loop=60s,file=x.tpr")).getMessage());
        assertEquals("the loop period must be at least 1s",
                assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("interval=10ms,loop=500ms,file=x-%t.tpr")).getMessage());
        assertEquals(3, AgentOptions.parse("interval=10ms,loop=2s,keep=3,file=x-%t.tpr").loop().keep());
        assertEquals(Path.of("/p/x-1.pb.gz"), AgentOptions.outputBeside(Path.of("/p/x-1.pb.gz.tpr"), "/p/x-%t.pb.gz"));
        assertEquals(Path.of("/p/x-1.json"), AgentOptions.outputBeside(Path.of("/p/x-1.tpr"), "/p/x-%t.json"));
        assertEquals(Path.of("/p/x-1.tpr"), AgentOptions.outputBeside(Path.of("/p/x-1.tpr"), "/p/x-%t.tpr"), "the recording was what was asked for");
    }

    @Test
    void defaultsAreLeftOutOfTheOptionString() {
        AgentOptions o = AgentOptions.parse("trace=a.*,mode=count,overhead=5,interval=10ms,samplemode=cpu,depth=2048,recompile=true,file=r.json");
        assertEquals("file=r.json,trace=a.*,interval=10ms", o.format());
    }

    @Test
    void optionsParseWithDefaultsAndNamesExpandThePid() {
        AgentOptions o = AgentOptions.parse("trace=com.foo.**;!com.foo.Bar,mode=trace,rate=0,onein=10,tostring");
        assertEquals(TraceMode.TRACE, o.tracing().mode());
        assertEquals("com.foo.**;!com.foo.Bar", o.tracing().filter().toString());
        assertEquals(0, o.tracing().limits().perSecond());
        assertEquals(10, o.tracing().limits().everyNth());
        assertTrue(o.tracing().limits().callToString());
        assertTrue(o.resultsFile(4242).toString().matches("tiprobe-4242-\\d{8}-\\d{6}\\.json"), "the command's default: " + o.resultsFile(4242));
        Path recording = o.recordingFile(4242);
        assertTrue(recording.toString().matches("tiprobe-4242-\\d{8}-\\d{6}\\.tpr"), "tracing records too: " + recording);
        assertEquals(recording.resolveSibling(recording.getFileName().toString().replace(".tpr", ".json")), o.resultsFile(recording, 4242),
                "the output shares its recording's time, read once");
        assertEquals(TraceMode.COUNT, AgentOptions.parse("trace=a.*").tracing().mode());
        assertEquals(0.05, AgentOptions.parse("trace=a.*").tracing().overheadBudget(), "a 5 % budget unless asked");
        assertEquals(0.025, AgentOptions.parse("trace=a.*,overhead=2.5").tracing().overheadBudget());
        assertEquals(0, AgentOptions.parse("trace=a.*,overhead=0").tracing().overheadBudget(), "0: no limit");
        AgentOptions sampling = AgentOptions.parse("interval=20ms,samplemode=cpu,file=/tmp/x-%p.json");
        assertNull(sampling.tracing(), "sampling alone");
        assertEquals(Duration.ofMillis(20), sampling.sampling().interval());
        assertEquals(SampleMode.CPU, sampling.sampling().mode());
        assertNull(sampling.sampling().threads(), "every thread");
        assertEquals("worker-*;main", AgentOptions.parse("interval=10ms,threads=worker-*;main").sampling().threads());
        assertEquals(Path.of("/tmp/x-7.tpr"), sampling.recordingFile(7), "the recording sits beside the results");
        assertEquals(Path.of("/tmp/r-7.tpr"), AgentOptions.parse("interval=1s,file=/tmp/x.json,recording=/tmp/r-%p.tpr").recordingFile(7));
        assertEquals(Path.of("/tmp/x.html.tpr"), AgentOptions.recordingBeside(Path.of("/tmp/x.html")), "an export's recording");
        assertEquals(Path.of("/tmp/x.tpr"), AgentOptions.recordingBeside(Path.of("/tmp/x.tpr")), "a recording asked for is itself");
        assertTrue(AgentOptions.expand("a-%p-%t.json", 9).matches("a-9-\\d{8}-\\d{6}\\.json"));
        assertTrue(AgentOptions.expandTime("a-%p-%t.json").matches("a-%p-\\d{8}-\\d{6}\\.json"), "the pid is left for the agent");
    }

    /** One duration grammar for every key and flag: a number and its unit, ns to h. */
    @Test
    void everyDurationReadsTheSameUnits() {
        assertEquals(Duration.ofNanos(250), AgentOptions.duration("x", "250ns"));
        assertEquals(Duration.ofNanos(500_000), AgentOptions.duration("x", "500us"));
        assertEquals(Duration.ofMillis(10), AgentOptions.duration("x", "10MS"));
        assertEquals(Duration.ofSeconds(5), AgentOptions.duration("x", " 5s "));
        assertEquals(Duration.ofMinutes(5), AgentOptions.parse("interval=10ms,loop=5m,file=/tmp/p-%t.tpr").loop().period(), "the advertised --loop 5m");
        assertEquals(Duration.ofHours(1), AgentOptions.duration("x", "1h"));
        assertEquals(Duration.ZERO, AgentOptions.threshold("x", "0"));
        for (String bad : new String[] {"", "ms", "5", "5x", "1.5s", "-5s", "5 s", "s5"}) {
            assertThrows(IllegalArgumentException.class, () -> AgentOptions.duration("x", bad), bad);
        }
    }

    @Test
    void badOptionsSayWhatIsWrong() {
        assertEquals("missing trace=<filter> (or interval=<duration> to sample, alloc=<bytes>, lock=<duration>)", message("mode=count"));
        assertEquals("alloc must be a size such as 512k (1 byte to 2g), not '512q'", message("alloc=512q"));
        assertEquals("alloc must be a size such as 512k (1 byte to 2g), not '4g'", message("alloc=4g"));
        assertEquals("lock must be a duration with its unit, such as 10ms (0: every wait), not '-1ms'", message("lock=-1ms"));
        assertEquals("live is for allocation profiling: it needs alloc=<bytes>", message("interval=10ms,live"));
        assertEquals("interval must be a positive duration with its unit, such as 10ms, 5s or 5m, not '0ms'", message("interval=0ms"));
        assertEquals("interval must be a positive duration with its unit, such as 10ms, 5s or 5m, not '10'", message("interval=10"),
                "a plain number meant ms here and s to -d: it needs its unit");
        assertEquals("interval must be a positive duration with its unit, such as 10ms, 5s or 5m, not '99999999999h'", message("interval=99999999999h"));
        assertEquals("samplemode must be wall or cpu, not 'gpu'", message("interval=10ms,samplemode=gpu"));
        assertEquals("mode must be count, time or trace, not 'fast'", message("trace=a.*,mode=fast"));
        assertEquals("unknown option 'colour'", message("trace=a.*,colour=red"));
        assertEquals("rate must be a non-negative number, not '-1'", message("trace=a.*,rate=-1"));
        assertEquals("maxcalls must be a non-negative number, not '9999999999'", message("trace=a.*,maxcalls=9999999999"));
        assertEquals("onein must be a whole number from 1, not '0'", message("trace=a.*,mode=trace,onein=0"));
        assertEquals("depth must be 1 to 4095 frames, not '4096'", message("interval=10ms,depth=4096"));
        assertEquals("quiet is a switch: give it alone, or as true or false, not 'yes'", message("interval=10ms,quiet=yes"));
        assertEquals("sample= is now onein= (record one call in n); stack sampling is interval=<duration>", message("trace=a.*,sample=2"));
        assertEquals("overhead must be a percentage such as 5 (0: no limit), not 'lots'", message("trace=a.*,overhead=lots"));
        assertTrue(message("trace=a.b::").contains("missing method name after '::' at position 5"));
        assertEquals("the sampling interval must be at least 1ms, not 500000ns", message("interval=500us"));
    }

    static String message(String args) {
        return assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse(args)).getMessage();
    }

    /** The memory ceiling: asked for in a size, or 5 % of the heap and at least 64 MB. */
    @Test
    void theMemoryCeilingIsAskedForOrFollowsTheHeap() {
        assertEquals(64L << 20, AgentOptions.parse("file=a.tpr,interval=10ms,maxmemory=64m").maxMemory(1L << 30));
        assertEquals(64L << 20, AgentOptions.parse("file=a.tpr,interval=10ms").maxMemory(256L << 20), "a small heap: the floor");
        assertEquals(200L << 20, AgentOptions.parse("file=a.tpr,interval=10ms").maxMemory(4000L << 20), "5 % of a 4000 MB heap");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("file=a.tpr,maxmemory=lots"))
                .getMessage().contains("maxmemory must be a size"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("file=a.tpr,maxmemory=64"))
                .getMessage().contains("maxmemory must be at least 1m, not '64'"), "64 bytes is no ceiling: a unit is meant");
    }
}
