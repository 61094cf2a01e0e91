package dev.tiprobe.report;

import dev.tiprobe.recording.RecordingFormat;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JfrRecordingsTest {
    @TempDir
    Path dir;

    /** Kept where the JIT cannot drop it. */
    static volatile long sink;
    static volatile byte[] kept;
    static final Object LOCK = new Object();

    /**
     * A recording of the JVM's own JFR, made here (samples every 10 ms, allocations, a contended
     * monitor), reads into tiprobe's views: the hot method leads the cpu view by its human name,
     * each sample is worth the recording's period, and the allocation and lock views hold theirs.
     */
    @Test
    void aJfrRecordingOfTheJvmReadsIntoTiprobesViews() throws Exception {
        Path file = dir.resolve("own.jfr");
        try (Recording jfr = new Recording()) {
            jfr.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10)).withStackTrace();
            jfr.enable("jdk.ObjectAllocationSample").with("throttle", "1000/s").withStackTrace();
            jfr.enable("jdk.JavaMonitorEnter").withThreshold(Duration.ZERO).withStackTrace();
            jfr.start();
            Thread holder = new Thread(() -> {
                synchronized (LOCK) {
                    spin(300);
                }
            });
            holder.start();
            Thread.sleep(50);
            synchronized (LOCK) {  // contended: the holder spins inside for 300 ms
                sink++;
            }
            holder.join();
            long until = System.nanoTime() + 1_500_000_000L;
            while (System.nanoTime() < until) {
                sink += hotLoop();
                for (int i = 0; i < 200; i++) kept = new byte[1024];  // escapes, and fills TLABs: JFR samples at their refills
            }
            jfr.stop();
            jfr.dump(file);
        }
        assertTrue(JfrRecordings.isJfr(file));

        dev.tiprobe.report.Recording r = JfrRecordings.read(file);

        assertTrue(r.cpuMode(), "execution samples alone: a cpu recording");
        assertEquals("10000000", r.info().get(RecordingFormat.INFO_INTERVAL), "the period the recording's settings name");
        assertTrue(r.samples().size() > 20, r.samples().size() + " samples");
        assertTrue(r.samples().stream().allMatch(s -> s.cpuNanos() == 10_000_000L), "each sample is worth one period of CPU");
        Map<String, Long> folded = FoldedStacks.fold(View.CPU.of(r), false);
        long all = folded.values().stream().mapToLong(Long::longValue).sum();
        Map<String, Long> byLeaf = new java.util.HashMap<>();
        folded.forEach((stack, weight) -> byLeaf.merge(stack.substring(stack.lastIndexOf(';') + 1), weight, Long::sum));
        String top = byLeaf.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        assertTrue(top.endsWith("JfrRecordingsTest.hotLoop"), "the hot method is the top leaf: " + byLeaf);
        assertTrue(byLeaf.get(top) > all / 3, "and holds much of the CPU: " + byLeaf);
        assertTrue(r.methods().containsValue("dev.tiprobe.report.JfrRecordingsTest.hotLoop() : long"), "named as tiprobe names methods");
        assertFalse(r.events().allocations().isEmpty(), "allocation samples");
        assertTrue(r.events().allocations().stream().anyMatch(a -> r.typeName(a.typeId()).equals("byte[]")),
                "the allocated class, named as tiprobe's own views name it: " + r.events().types());
        assertTrue(r.events().locks().stream().anyMatch(w -> w.kind() == RecordingFormat.LOCK_CONTENDED && w.waitNanos() > 100_000_000L),
                "the contended monitor, waited for most of 300 ms: " + r.events().locks());
        assertTrue(r.threads().containsValue("main") || r.threads().values().stream().anyMatch(n -> n.contains("main")), r.threads().toString());
    }

    /**
     * A recording of JFR's CPU-time sampler alone (Linux; what tiprobe itself samples with) reads
     * into the cpu view, each sample worth the CPU its sampling period says, the hot method first.
     */
    @Test
    void aRecordingOfCpuTimeSamplesAloneReadsIntoTheCpuView() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getProperty("os.name").equals("Linux"), "JFR's CPU-time sampler is Linux's");
        Path file = dir.resolve("cpu-time.jfr");
        try (Recording jfr = new Recording()) {
            jfr.enable("jdk.CPUTimeSample").with("throttle", "10ms").withStackTrace();
            jfr.start();
            spinOnCpu(600);
            jfr.stop();
            jfr.dump(file);
        }
        dev.tiprobe.report.Recording r = JfrRecordings.read(file);
        assertTrue(r.cpuMode());
        assertTrue(r.samples().size() > 20, r.samples().size() + " samples");
        assertTrue(r.samples().stream().allMatch(s -> s.cpuNanos() > 0), "each sample worth the CPU it stands for");
        Map<String, Long> byLeaf = new java.util.HashMap<>();
        FoldedStacks.fold(View.CPU.of(r), false).forEach((stack, weight) -> byLeaf.merge(stack.substring(stack.lastIndexOf(';') + 1), weight, Long::sum));
        String top = byLeaf.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        assertTrue(top.endsWith("JfrRecordingsTest.hotLoop"), "the hot method is the top leaf: " + byLeaf);
    }

    @Test
    void aFileThatIsNotJfrIsToldApart() throws IOException {
        Path file = dir.resolve("x.tpr");
        Files.write(file, new byte[] {'T', 'P', 'R', 'B', 9, 0, 0, 0});
        assertFalse(JfrRecordings.isJfr(file));
        Path cut = dir.resolve("cut.jfr");
        Files.write(cut, new byte[] {'F', 'L', 'R', 0, 0, 2});
        assertTrue(JfrRecordings.isJfr(cut));
        assertThrows(IOException.class, () -> JfrRecordings.read(cut), "a cut JFR file is an I/O error with JFR's reason");
    }

    static long hotLoop() {
        long x = 0;
        for (int i = 0; i < 200_000; i++) x += (x ^ i) * 31 + i % 7;
        return x;
    }

    /**
     * Spins until this thread has run {@code millis} on a CPU, which is what JFR's CPU-time
     * sampler counts: spinning as long by the clock gave fewer than a third of the samples beside busy
     * neighbours. Read from Linux's {@code /proc/thread-self/schedstat}; gives up after 30 s.
     */
    private static void spinOnCpu(long millis) throws IOException {
        Path schedstat = Path.of("/proc/thread-self/schedstat");
        long until = onCpuNanos(schedstat) + millis * 1_000_000L;
        long giveUp = System.nanoTime() + 30_000_000_000L;
        while (onCpuNanos(schedstat) < until && System.nanoTime() < giveUp) {
            for (int i = 0; i < 20; i++) sink += hotLoop();
        }
    }

    private static long onCpuNanos(Path schedstat) throws IOException {
        return Long.parseLong(Files.readString(schedstat).split(" ", 2)[0]);
    }

    private static void spin(long millis) {
        long until = System.nanoTime() + millis * 1_000_000L;
        while (System.nanoTime() < until) sink += hotLoop();
    }
}
