package dev.tiprobe.report;

import dev.tiprobe.ids.HumanNames.FrameStyle;
import dev.tiprobe.recording.Allocation;
import dev.tiprobe.recording.Call;
import dev.tiprobe.recording.ClassEvent;
import dev.tiprobe.recording.Info;
import dev.tiprobe.recording.LockWait;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.RecordingWriter;
import dev.tiprobe.recording.Sample;
import dev.tiprobe.recording.Stack;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JfrExportTest {
    @TempDir
    Path dir;

    static final Map<Integer, String> METHODS = Map.of(
            1, "app.jar!com.foo.Orders.total(java.util.List<com.foo.Order> orders, int[] discounts) : long",
            2, "app.jar!com.foo.Orders.<init>()",
            3, "java.base/java.lang.Thread.run() : void",
            4, "app.jar!com.foo.Gen$$Lambda/hidden.apply(java.lang.Object) : java.lang.Object");

    /** A tiprobe recording with samples, allocations and waits, exported to JFR. */
    private Path exported(String mode) throws IOException {
        Path tpr = dir.resolve(mode + ".tpr");
        try (RecordingWriter w = RecordingWriter.create(tpr, METHODS::get)) {
            w.write(1_000_000_000L, Info.KIND, new Info(RecordingFormat.INFO_SAMPLE_MODE, mode));
            w.write(1_000_000_000L, Info.KIND, new Info(RecordingFormat.INFO_INTERVAL, "10000000"));
            for (int i = 0; i < 30; i++) {
                w.write(1_000_000_000L + i * 10_000_000L, Sample.KIND, new Sample(1_000_000_000L + i * 10_000_000L, 7, "worker-1",
                        RecordingFormat.STATE_RUNNABLE, 10_000_000, 1, new Stack(new int[] {1, 4, 3}, new int[] {42, 0, 840}, 3, false)));
            }
            for (int i = 0; i < 10; i++) {
                w.write(1_000_000_000L + i * 10_000_000L, Sample.KIND, new Sample(1_000_000_000L + i * 10_000_000L, 8, "waiter",
                        RecordingFormat.STATE_WAITING, 0, 1, new Stack(new int[] {2, 3}, new int[] {7, 840}, 2, false)));
            }
            w.write(1_100_000_000L, Allocation.KIND, new Allocation(1_100_000_000L, 7, "worker-1", "byte[]", 4096, 0,
                    new Stack(new int[] {1, 3}, new int[] {43, 840}, 2, false)));
            w.write(1_200_000_000L, Allocation.KIND, new Allocation(1_200_000_000L, 7, "worker-1", "com.foo.Order[][]", 64, 0,
                    new Stack(new int[] {1, 3}, new int[] {43, 840}, 2, false)));
            w.write(1_300_000_000L, LockWait.KIND, new LockWait(1_300_000_000L, 8, "waiter", RecordingFormat.LOCK_CONTENDED,
                    "com.foo.Orders", 5_000_000, new Stack(new int[] {2, 3}, new int[] {9, 840}, 2, false), 7, "worker-1",
                    new Stack(new int[] {1, 3}, new int[] {42, 840}, 2, false)));
            w.flush();
        }
        Recording r = RecordingReader.read(tpr);
        Path jfr = dir.resolve(mode + ".jfr");
        try (OutputStream out = Files.newOutputStream(jfr)) {
            JfrExport.write(r, out);
        }
        return jfr;
    }

    /** A class's package as the JVM names it, from the name the views give the class; none for an array or the unnamed package. */
    @Test
    void aClassesPackageComesFromItsName() {
        assertEquals("com/foo", JfrExport.packageOf("com.foo.Outer$Inner"));
        assertEquals("com/foo", JfrExport.packageOf("com.foo.Bar$$Lambda/0x000000080012c000"), "a hidden class: its name, then its address");
        assertEquals(null, JfrExport.packageOf("com.foo.Bar[]"));
        assertEquals(null, JfrExport.packageOf("Main"));
        assertEquals(null, JfrExport.packageOf(""), "a native symbol's frame: no class");
    }

    /**
     * The JDK's own parser reads the file: each event with its thread, stack (class, method,
     * descriptor and line of each frame), allocated class and weight, monitor class, owner and
     * duration, and the time the sample was taken.
     */
    @Test
    void theJdksParserReadsEveryEventWithItsStackThreadAndClass() throws IOException {
        List<RecordedEvent> events = RecordingFile.readAllEvents(exported("cpu"));
        Map<String, Long> byType = events.stream().collect(Collectors.groupingBy(e -> e.getEventType().getName(), Collectors.counting()));
        assertEquals(Map.of("jdk.ActiveSetting", 1L, "jdk.ExecutionSample", 30L, "jdk.CPUTimeSample", 30L, "jdk.ObjectAllocationSample", 2L,
                "jdk.JavaMonitorEnter", 1L), byType, "a cpu-mode recording's samples of threads seen running, as both JFR samplers write them, and its period");
        RecordedEvent sample = events.stream().filter(e -> e.getEventType().getName().equals("jdk.ExecutionSample")).findFirst().orElseThrow();
        assertEquals("worker-1", sample.getThread("sampledThread").getJavaName());
        assertEquals(7, sample.getThread("sampledThread").getJavaThreadId());
        assertEquals(1_000_000_000L, sample.getStartTime().getEpochSecond() * 1_000_000_000L + sample.getStartTime().getNano());
        List<RecordedFrame> frames = sample.getStackTrace().getFrames();
        assertEquals(List.of("com.foo.Orders.total", "com.foo.Gen$$Lambda.apply", "java.lang.Thread.run"),  // a hidden class as async-profiler names it
                frames.stream().map(f -> f.getMethod().getType().getName() + "." + f.getMethod().getName()).toList());
        assertEquals("(Ljava/util/List;[I)J", frames.get(0).getMethod().getDescriptor());
        assertEquals(List.of(42, 0, 840), frames.stream().map(RecordedFrame::getLineNumber).toList());
        assertEquals("STATE_RUNNABLE", sample.getString("state"));
        assertEquals("Unknown", frames.getFirst().getType());
        RecordedEvent cpuTime = events.stream().filter(e -> e.getEventType().getName().equals("jdk.CPUTimeSample")).findFirst().orElseThrow();
        assertEquals("worker-1", cpuTime.getThread("eventThread").getJavaName());
        assertEquals(frames.size(), cpuTime.getStackTrace().getFrames().size());
        assertEquals(10_000_000L, cpuTime.getDuration("samplingPeriod").toNanos());

        RecordedEvent bytes = events.stream().filter(e -> e.getEventType().getName().equals("jdk.ObjectAllocationSample")).findFirst().orElseThrow();
        assertEquals("[B", bytes.getClass("objectClass").getName(), "arrays by descriptor, as the JVM writes them");
        assertEquals("worker-1", bytes.getThread().getJavaName());
        assertTrue(bytes.getLong("weight") >= 4096);
        assertEquals(43, bytes.getStackTrace().getFrames().getFirst().getLineNumber());
        RecordedEvent orders = events.stream().filter(e -> e.getEventType().getName().equals("jdk.ObjectAllocationSample")).skip(1).findFirst().orElseThrow();
        assertEquals("[[Lcom.foo.Order;", orders.getClass("objectClass").getName());

        RecordedEvent wait = events.stream().filter(e -> e.getEventType().getName().equals("jdk.JavaMonitorEnter")).findFirst().orElseThrow();
        assertEquals("com.foo.Orders", wait.getClass("monitorClass").getName());
        assertEquals(5_000_000, wait.getDuration().toNanos());
        assertEquals("worker-1", wait.getThread("previousOwner").getJavaName());
        assertEquals(1_300_000_000L, wait.getEndTime().getEpochSecond() * 1_000_000_000L + wait.getEndTime().getNano(), "it ends when tiprobe saw it end");
    }

    /** tiprobe reads its own JFR export back into the same views: folded stacks of every view as from the recording. */
    @Test
    void tiprobeReadsItsExportBackIntoTheSameViews() throws IOException {
        for (String mode : List.of("cpu", "wall")) {
            Path jfr = exported(mode);
            Recording original = RecordingReader.read(dir.resolve(mode + ".tpr"));
            Recording back = JfrRecordings.read(jfr);
            for (View view : List.of(View.ALLOC, View.LOCK, mode.equals("wall") ? View.WALL : View.CPU)) {
                assertEquals(folded(view, original), folded(view, back), mode + " recording, " + view + " view");
            }
        }
    }

    private static String folded(View view, Recording r) throws IOException {
        StringWriter w = new StringWriter();
        FoldedStacks.write(view.of(r), w, false, FrameStyle.SLASH);
        return w.toString();
    }

    /**
     * tiprobe's own events, which JFR has no type for: each traced call with its method, thread,
     * duration, arguments, result and kept stack, and classes loaded and unloaded, read back by
     * the JDK's parser and by its {@code jfr} tool ({@code summary}, {@code print --events}).
     */
    @Test
    void tracedCallsAndClassEventsAreTiprobesOwnJfrEvents() throws Exception {
        Path tpr = dir.resolve("traced.tpr");
        try (RecordingWriter w = RecordingWriter.create(tpr, METHODS::get)) {
            w.write(1_000_000_000L, ClassEvent.LOADED, new ClassEvent(1_000_000_000L, true, "com.foo.Orders"));
            w.write(1_050_000_000L, Call.KIND, new Call(1_050_000_000L, 7, "worker-1", 1, 0, 3_000_000, false,
                    List.of("orders", "discounts"),
                    List.of(new dev.tiprobe.recording.CapturedValue.Str("three orders"), new dev.tiprobe.recording.CapturedValue.Int(5)),
                    new dev.tiprobe.recording.CapturedValue.Int(1250), new Stack(new int[] {1, 3}, new int[] {42, 840}, 2, false),
                    List.of()));
            w.write(1_200_000_000L, ClassEvent.UNLOADED, new ClassEvent(1_200_000_000L, false, "com.foo.Orders"));
            w.flush();
        }
        Path jfr = dir.resolve("traced.jfr");
        try (OutputStream out = Files.newOutputStream(jfr)) {
            JfrExport.write(RecordingReader.read(tpr), out);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        RecordedEvent call = events.stream().filter(e -> e.getEventType().getName().equals("tiprobe.TracedCall")).findFirst().orElseThrow();
        assertEquals("total", call.<jdk.jfr.consumer.RecordedMethod>getValue("method").getName());
        assertEquals("com.foo.Orders", call.<jdk.jfr.consumer.RecordedMethod>getValue("method").getType().getName());
        assertEquals("worker-1", call.getThread("eventThread").getJavaName());
        assertEquals(3_000_000, call.getDuration().toNanos());
        assertEquals("orders=\"three orders\", discounts=5", call.getString("arguments"));
        assertEquals("1250", call.getString("result"));
        assertEquals(List.of("total", "run"), call.getStackTrace().getFrames().stream().map(f -> f.getMethod().getName()).toList());
        assertEquals(List.of("tiprobe.ClassLoad com.foo.Orders", "tiprobe.ClassUnload com.foo.Orders"), events.stream()
                .filter(e -> e.getEventType().getName().startsWith("tiprobe.Class"))
                .map(e -> e.getEventType().getName() + " " + e.getClass("loadedClass").getName()).toList());

        String jfrTool = Path.of(System.getProperty("java.home"), "bin", "jfr").toString();
        String summary = run(jfrTool, "summary", jfr.toString());
        assertTrue(summary.contains("tiprobe.TracedCall") && summary.contains("tiprobe.ClassLoad") && summary.contains("tiprobe.ClassUnload"), summary);
        String printed = run(jfrTool, "print", "--events", "tiprobe.TracedCall", jfr.toString());
        assertTrue(printed.contains("arguments = \"orders=\"three orders\", discounts=5\"") && printed.contains("com.foo.Orders.total("), printed);
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), out);
        return out;
    }
}
