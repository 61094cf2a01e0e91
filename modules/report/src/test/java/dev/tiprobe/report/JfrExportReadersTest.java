package dev.tiprobe.report;

import dev.tiprobe.recording.Allocation;
import dev.tiprobe.recording.Deadlock;
import dev.tiprobe.recording.Info;
import dev.tiprobe.recording.LockWait;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.RecordingWriter;
import dev.tiprobe.recording.Sample;
import dev.tiprobe.recording.Stack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmc.common.IMCFrame;
import org.openjdk.jmc.common.IMCStackTrace;
import org.openjdk.jmc.common.item.IItem;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.IItemIterable;
import org.openjdk.jmc.common.item.IMemberAccessor;
import org.openjdk.jmc.common.util.IPreferenceValueProvider;
import org.openjdk.jmc.flightrecorder.JfrAttributes;
import org.openjdk.jmc.flightrecorder.JfrLoaderToolkit;
import org.openjdk.jmc.flightrecorder.rules.IResult;
import org.openjdk.jmc.flightrecorder.rules.IRule;
import org.openjdk.jmc.flightrecorder.rules.RuleRegistry;
import org.openjdk.jmc.flightrecorder.rules.util.RulesToolkit;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JFR export as readers other than the JDK's read it: JDK Mission Control (parser and rules) and async-profiler's converter. */
class JfrExportReadersTest {
    @TempDir
    Path dir;

    static final Map<Integer, String> METHODS = Map.of(
            1, "app.jar!com.foo.Orders.total(java.util.List<com.foo.Order> orders, int[] discounts) : long",
            2, "java.base/java.lang.Object.wait(long) : void",
            3, "java.base/java.lang.Thread.run() : void",
            4, "memcpy");  // a native symbol: a frame of no class, whose class is named by an empty symbol

    private Path exported(String mode) throws Exception {
        Path tpr = dir.resolve(mode + ".tpr");
        try (RecordingWriter w = RecordingWriter.create(tpr, METHODS::get)) {
            w.write(1_000_000_000L, Info.KIND, new Info(RecordingFormat.INFO_SAMPLE_MODE, mode));
            w.write(1_000_000_000L, Info.KIND, new Info(RecordingFormat.INFO_INTERVAL, "10000000"));
            for (int i = 0; i < 30; i++) {
                w.write(1_000_000_000L + i * 10_000_000L, Sample.KIND, new Sample(1_000_000_000L + i * 10_000_000L, 7, "worker-1",
                        RecordingFormat.STATE_RUNNABLE, 10_000_000, 1, new Stack(new int[] {4, 1, 3}, new int[] {0, 42, 840}, 3, false)));
            }
            for (int i = 0; i < 10; i++) {
                w.write(1_000_000_000L + i * 10_000_000L, Sample.KIND, new Sample(1_000_000_000L + i * 10_000_000L, 8, "waiter",
                        RecordingFormat.STATE_WAITING, 0, 1, new Stack(new int[] {2, 3}, new int[] {0, 840}, 2, false)));
            }
            w.write(1_100_000_000L, Allocation.KIND, new Allocation(1_100_000_000L, 7, "worker-1", "byte[]", 4096, 0,
                    new Stack(new int[] {1, 3}, new int[] {43, 840}, 2, false)));
            w.write(1_300_000_000L, LockWait.KIND, new LockWait(1_300_000_000L, 8, "waiter", RecordingFormat.LOCK_CONTENDED,
                    "com.foo.Orders", 5_000_000, new Stack(new int[] {1, 3}, new int[] {9, 840}, 2, false), 7, "worker-1",
                    new Stack(new int[] {1, 3}, new int[] {42, 840}, 2, false)));
            w.write(1_400_000_000L, LockWait.KIND, new LockWait(1_400_000_000L, 8, "waiter", RecordingFormat.LOCK_WAIT, "com.foo.Orders",
                    7_000_000, new Stack(new int[] {2, 3}, new int[] {0, 840}, 2, false), 0, null, null));
            w.write(1_500_000_000L, LockWait.KIND, new LockWait(1_500_000_000L, 8, "waiter", RecordingFormat.LOCK_PARKED,
                    "java.util.concurrent.locks.ReentrantLock", 3_000_000, new Stack(new int[] {1, 3}, new int[] {10, 840}, 2, false), 7,
                    "worker-1", new Stack(new int[] {1, 3}, new int[] {42, 840}, 2, false)));
            w.write(1_600_000_000L, Deadlock.KIND, new Deadlock(1_600_000_000L, List.of(
                    new Deadlock.Waiter(7, "worker-1", "java.lang.Object@1a", 8, List.of("java.lang.Object@2b"),
                            new Stack(new int[] {1, 3}, new int[] {11, 840}, 2, false)),
                    new Deadlock.Waiter(8, "waiter", "java.lang.Object@2b", 7, List.of("java.lang.Object@1a"),
                            new Stack(new int[] {1, 3}, new int[] {12, 840}, 2, false)))));
            w.flush();
        }
        Path jfr = dir.resolve(mode + ".jfr");
        try (OutputStream out = Files.newOutputStream(jfr)) {
            JfrExport.write(RecordingReader.read(tpr), out);
        }
        return jfr;
    }

    /**
     * JMC's parser reads every event with its stack (each frame's class, method and type, which
     * JMC's reader of the JDK's frames takes by position); each of JMC's rules evaluates without failing.
     */
    @Test
    void jdkMissionControlReadsEveryEventAndEvaluatesEveryRule() throws Exception {
        for (String mode : List.of("cpu", "wall")) {
            IItemCollection items = JfrLoaderToolkit.loadEvents(exported(mode).toFile());
            Map<String, Integer> withStacks = new TreeMap<>();
            for (IItemIterable events : items) {
                IMemberAccessor<IMCStackTrace, IItem> stack = JfrAttributes.EVENT_STACKTRACE.getAccessor(events.getType());
                for (IItem e : events) {
                    IMCStackTrace s = stack == null ? null : stack.getMember(e);
                    if (s == null) continue;
                    IMCFrame root = s.getFrames().get(s.getFrames().size() - 1);
                    assertEquals("java.lang.Thread.run", root.getMethod().getType().getFullName() + "." + root.getMethod().getMethodName());
                    assertEquals(IMCFrame.Type.UNKNOWN, root.getType());
                    withStacks.merge(events.getType().getIdentifier(), 1, Integer::sum);
                }
            }
            assertEquals(mode.equals("cpu")
                    ? Map.of("jdk.CPUTimeSample", 30, "jdk.ExecutionSample", 30, "jdk.JavaMonitorEnter", 1, "jdk.JavaMonitorWait", 1,
                            "jdk.ObjectAllocationSample", 1, "jdk.ThreadPark", 1, "tiprobe.Deadlock", 2)
                    : Map.of("profiler.WallClockSample", 40, "jdk.JavaMonitorEnter", 1, "jdk.JavaMonitorWait", 1, "jdk.ObjectAllocationSample", 1,
                            "jdk.ThreadPark", 1, "tiprobe.Deadlock", 2),
                    withStacks, mode);
            Map<IRule, Future<IResult>> rules = RulesToolkit.evaluateParallel(RuleRegistry.getRules(), items, IPreferenceValueProvider.DEFAULT_VALUES, 1);
            assertTrue(rules.size() > 50, "JMC's rules: " + rules.size());
            for (Future<IResult> rule : rules.values()) rule.get(60, TimeUnit.SECONDS);  // a rule that failed throws its exception here
        }
    }

    /** async-profiler's converter folds each kind of sample: CPU time, wall clock, allocations, contended monitors and parks. */
    @Test
    void asyncProfilersConverterFoldsTheStacks() throws Exception {
        Path cpu = exported("cpu");
        Path wall = exported("wall");
        assertEquals("java/lang/Thread.run_[j];com/foo/Orders.total_[j];memcpy_[j] 30", converted(cpu, "--cpu-time"));
        assertEquals("java/lang/Thread.run_[j];com/foo/Orders.total_[j];memcpy_[j] 30\n"
                + "java/lang/Thread.run_[j];java/lang/Object.wait_[j] 10", converted(wall, "--wall"));
        assertEquals("java/lang/Thread.run_[j];com/foo/Orders.total_[j];byte[]_[k] 4096", converted(cpu, "--alloc", "--total"));
        assertEquals("java/lang/Thread.run_[j];com/foo/Orders.total_[j];com.foo.Orders_[i] 5000000\n"
                + "java/lang/Thread.run_[j];com/foo/Orders.total_[j];java.util.concurrent.locks.ReentrantLock_[i] 3000000",
                converted(cpu, "--lock", "--total"));
    }

    /**
     * A frame's class has its package, which the JVM writes too and JMC groups by; a thread is
     * keyed by its Java thread id, as the JVM keys its own, which async-profiler's converter
     * names it by. Neither is made up: the class loader, the package's module and the OS thread
     * id, which the recording does not know, stay empty.
     */
    @Test
    void classesHaveTheirPackagesAndThreadsTheirJavaIds() throws Exception {
        Path cpu = exported("cpu");
        java.util.Set<String> packages = new java.util.TreeSet<>();
        for (IItemIterable events : JfrLoaderToolkit.loadEvents(cpu.toFile())) {
            IMemberAccessor<IMCStackTrace, IItem> stack = JfrAttributes.EVENT_STACKTRACE.getAccessor(events.getType());
            if (stack == null) continue;
            for (IItem e : events) {
                IMCStackTrace s = stack.getMember(e);
                if (s == null) continue;
                for (IMCFrame f : s.getFrames()) {
                    org.openjdk.jmc.common.IMCPackage p = f.getMethod().getType().getPackage();
                    packages.add(f.getMethod().getType().getFullName() + " in " + (p == null ? null : p.getName()));
                }
            }
        }
        assertEquals(java.util.Set.of("com.foo.Orders in com.foo", "java.lang.Object in java.lang", "java.lang.Thread in java.lang",
                " in null"), packages, "memcpy's frame: a native symbol, of no class");
        assertTrue(converted(cpu, "--cpu-time", "--threads").startsWith("[worker-1 tid=7];"), converted(cpu, "--cpu-time", "--threads"));
        Path virtual = dir.resolve("virtual.tpr");
        try (RecordingWriter w = RecordingWriter.create(virtual, METHODS::get)) {
            w.write(1_000_000_000L, Info.KIND, new Info(RecordingFormat.INFO_SAMPLE_MODE, "cpu"));
            w.write(1_000_000_000L, Info.KIND, new Info(RecordingFormat.INFO_INTERVAL, "10000000"));
            w.write(1_000_000_000L, Sample.KIND, new Sample(1_000_000_000L, 0, "[virtual threads]", RecordingFormat.STATE_RUNNABLE,
                    10_000_000, 1, new Stack(new int[] {1, 3}, new int[] {42, 840}, 2, false)));
        }
        Path virtualJfr = dir.resolve("virtual.jfr");
        try (OutputStream out = Files.newOutputStream(virtualJfr)) {
            JfrExport.write(RecordingReader.read(virtual), out);
        }
        assertTrue(converted(virtualJfr, "--cpu-time", "--threads").startsWith("[[virtual threads] tid="),
                "the one thread of all virtual threads, by its name: " + converted(virtualJfr, "--cpu-time", "--threads"));
        try (jdk.jfr.consumer.RecordingFile in = new jdk.jfr.consumer.RecordingFile(cpu)) {
            jdk.jfr.consumer.RecordedEvent sample = in.readEvent();
            while (!sample.getEventType().getName().equals("jdk.ExecutionSample")) sample = in.readEvent();
            jdk.jfr.consumer.RecordedThread t = sample.getThread("sampledThread");
            assertEquals(7, t.getJavaThreadId());
            assertEquals(0, t.getOSThreadId(), "not known");
            jdk.jfr.consumer.RecordedClass orders = sample.getStackTrace().getFrames().get(1).getMethod().getType();
            assertEquals("com.foo.Orders", orders.getName());
            assertEquals(null, orders.getClassLoader(), "not known");
        }
    }

    /**
     * The JDK's reader finds each unit's content type, as on the JDK's own recordings, so that
     * {@code jfr print} writes {@code duration = 5.00 ms} and {@code timeout = N/A} where it wrote
     * {@code PT0.005S} and {@code PT-2562047788015215H-30M-8S}.
     */
    @Test
    void theJdksReaderFindsTheUnitsContentTypes() throws Exception {
        Map<String, String> contentTypes = new TreeMap<>();
        try (jdk.jfr.consumer.RecordingFile in = new jdk.jfr.consumer.RecordingFile(exported("cpu"))) {
            for (jdk.jfr.EventType t : in.readEventTypes()) {
                for (jdk.jfr.ValueDescriptor f : t.getFields()) {
                    if (List.of("duration", "timeout", "until", "weight", "samplingPeriod", "address").contains(f.getName())) {
                        contentTypes.put(t.getName() + "." + f.getName(), f.getContentType());
                    }
                }
            }
        }
        assertEquals("jdk.jfr.Timespan", contentTypes.get("jdk.JavaMonitorEnter.duration"), contentTypes.toString());
        assertEquals("jdk.jfr.Timespan", contentTypes.get("jdk.ThreadPark.timeout"), contentTypes.toString());
        assertEquals("jdk.jfr.Timestamp", contentTypes.get("jdk.ThreadPark.until"), contentTypes.toString());
        assertEquals("jdk.jfr.DataAmount", contentTypes.get("jdk.ObjectAllocationSample.weight"), contentTypes.toString());
        assertEquals("jdk.jfr.Timespan", contentTypes.get("jdk.CPUTimeSample.samplingPeriod"), contentTypes.toString());
        assertEquals("jdk.jfr.MemoryAddress", contentTypes.get("jdk.JavaMonitorEnter.address"), contentTypes.toString());
    }

    /** tiprobe reads its own JFR export back into the same views: parks keep their kinds, a deadlock is JFR's alone. */
    @Test
    void tiprobeReadsItsExportsParksBackIntoTheirViews() throws Exception {
        Recording back = JfrRecordings.read(exported("cpu"));
        List<String> kinds = back.events().locks().stream().map(w -> w.kind() + " " + back.typeName(w.typeId())).sorted().toList();
        assertEquals(List.of("0 com.foo.Orders", "1 com.foo.Orders", "2 java.util.concurrent.locks.ReentrantLock"), kinds);
    }

    private String converted(Path jfr, String... options) throws Exception {
        Path out = dir.resolve("converted.collapsed");
        List<String> args = new ArrayList<>(List.of(options));
        args.addAll(List.of("-o", "collapsed", jfr.toString(), out.toString()));
        one.convert.Main.main(args.toArray(String[]::new));
        return Files.readString(out).strip();
    }
}
