package dev.tiprobe.agent;

import dev.tiprobe.recording.Allocation;
import dev.tiprobe.recording.LockWait;
import dev.tiprobe.recording.Sample;
import dev.tiprobe.report.Recording;
import dev.tiprobe.report.RecordingReader;
import dev.tiprobe.testing.Command;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sampling for 30 s while four threads load and drop classes (and hidden classes) without pause:
 * no crash, every frame of a generated class names that class's own method, and classes that
 * unloaded mid-recording keep their names in it.
 */
class SamplingIT {
    @TempDir
    Path dir;

    @Test
    void samplingThroughClassChurnResolvesEveryFrameToItsOwnClass() throws Exception {
        Path results = dir.resolve("churn.json");
        Command.Run run = TracingIT.java(List.of("-cp", TracingIT.TEST_CLASSES.toString(), "-Xmx256m",
                "-javaagent:" + TracingIT.AGENT + "=interval=5ms,samplemode=wall,file=" + results), "example.workload.SampledChurn", "30");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().startsWith("classes "), run.out());

        Recording r = RecordingReader.read(dir.resolve("churn.tpr"));
        assertNull(r.damage());
        assertTrue(r.chunks() >= 20, "a chunk a second: " + r.chunks());
        Pattern generated = Pattern.compile("(?:gen\\.Churn|HiddenChurn)(\\d+)(?:/hidden)?\\.spin(\\d+)\\(");
        int checked = 0;
        for (Sample s : r.samples()) {
            for (int id : s.frames()) {
                Matcher m = generated.matcher(r.methodName(id));
                if (!m.find()) continue;
                assertEquals(m.group(1), m.group(2), "a frame resolved to another class's method: " + r.methodName(id));
                checked++;
            }
        }
        assertTrue(checked > 500, "frames in generated classes: " + checked);
        long loads = r.classEvents().stream().filter(e -> e.load() && e.className().startsWith("gen.Churn")).count();
        assertTrue(loads > 100, "the program's class loads recorded (none of tiprobe's, TracingIT): " + loads);
        long unloads = r.classEvents().stream().filter(e -> !e.load() && e.className().startsWith("gen.Churn")).count();
        assertTrue(unloads > 100, "unloads recorded: " + unloads);
        long named = r.classEvents().stream().filter(e -> !e.load() && e.className().startsWith("gen.Churn"))
                .filter(e -> r.methods().values().stream().anyMatch(n -> n.startsWith(e.className() + ".spin"))).count();
        assertTrue(named > 0, "names of unloaded classes that were sampled are in the recording");
    }
    /**
     * Allocation sampling (with live tracking) through the same churn: no crash, every allocation
     * stack named (classes are named while their frames are on the stack, so an unload right after
     * cannot make a frame unknown), and a generated class's frame names its own method. No overhead
     * budget: every sample at the small interval asked, the most stacks to check.
     */
    @Test
    void allocationSamplingThroughClassChurnNamesEveryFrame() throws Exception {
        Path results = dir.resolve("alloc.json");
        Command.Run run = TracingIT.java(List.of("-cp", TracingIT.TEST_CLASSES.toString(), "-Xmx256m",
                "-javaagent:" + TracingIT.AGENT + "=alloc=16k,allocoverhead=0,live,interval=20ms,samplemode=wall,file=" + results), "example.workload.SampledChurn", "15");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().startsWith("classes "), run.out());
        Recording r = RecordingReader.read(dir.resolve("alloc.tpr"));
        assertNull(r.damage());
        assertTrue(r.events().allocations().size() > 1000, "allocation samples: " + r.events().allocations().size());
        Pattern generated = Pattern.compile("(?:gen\\.Churn|HiddenChurn)(\\d+)(?:/hidden)?\\.spin(\\d+)\\(");
        for (Allocation a : r.events().allocations()) {
            assertTrue(a.frames().length > 0, "an allocation without a stack");
            for (int id : a.frames()) {
                String name = r.methodName(id);
                assertFalse(name.equals("[unknown]") || name.startsWith("dev.tiprobe.jvmti") || name.startsWith("java.lang.invoke.LambdaForm"),
                        "a frame that is not the program's: " + name);
                Matcher m = generated.matcher(name);
                if (m.find()) assertEquals(m.group(1), m.group(2), "a frame resolved to another class's method: " + name);
            }
        }
        assertFalse(r.events().freed().isEmpty(), "collected objects were told");
    }
    /**
     * The in-process API: {@code Profiler.start} and {@code stop} from the application's code give
     * a recording with samples, allocations (the retained ones live) and the contended monitor's
     * waits, named; stopping twice says no session runs.
     */
    @Test
    void inProcessProfilingRecordsSamplesAllocationsAndWaits() throws Exception {
        Command.Run run = TracingIT.java(List.of("-cp", TracingIT.AGENT + java.io.File.pathSeparator + TracingIT.TEST_CLASSES),
                "example.workload.InProcessProfile", dir.toString());
        assertEquals(0, run.exit(), run.out() + run.err());
        List<String> lines = run.out().lines().toList();
        assertTrue(lines.getFirst().matches("started: sampling every 10 ms \\(cpu\\), allocations every 64 KiB \\(wider if sampling costs over 1 % of the CPU; live objects tracked\\),"
                + " waits of 1\\.0 ms or more; recording to .*in\\.tpr"), run.out());
        assertEquals("stopped " + dir.resolve("in.tpr").toAbsolutePath(), lines.get(1), run.out());
        assertEquals("again: no session is running", lines.get(2), run.out());
        Recording r = RecordingReader.read(dir.resolve("in.tpr"));
        assertTrue(r.ended() && r.samples().stream().anyMatch(x -> java.util.Arrays.stream(x.frames())
                .anyMatch(id -> r.methodName(id).startsWith("example.workload.InProcessProfile.spin("))), "a finished recording with the spin's samples");
        List<Allocation> inAllocate = r.events().allocations().stream()
                .filter(a -> a.frames().length > 0 && r.methodName(a.frames()[0]).startsWith("example.workload.InProcessProfile.allocate("))
                .toList();
        assertTrue(inAllocate.size() > 10, "about 8 MiB of int[1024] at 64 KiB: " + inAllocate.size());
        assertTrue(inAllocate.stream().allMatch(a -> r.typeName(a.typeId()).equals("int[]")), "the class is named");
        assertTrue(inAllocate.stream().anyMatch(a -> a.tag() != 0 && !r.events().freed().contains(a.tag())), "the retained arrays are live");
        assertEquals("jfr", r.info().get(dev.tiprobe.recording.RecordingFormat.INFO_LOCK_SOURCE), "waits from JFR's monitor events");
        List<LockWait> waits = r.events().locks();
        assertTrue(waits.stream().anyMatch(w -> w.kind() == dev.tiprobe.recording.RecordingFormat.LOCK_CONTENDED
                && r.typeName(w.typeId()).equals("java.lang.Object")
                && r.methodName(w.frames()[0]).startsWith("example.workload.InProcessProfile.holdLock(")), "the contended monitor's waits");
    }
}
