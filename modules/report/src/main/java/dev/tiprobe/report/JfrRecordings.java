package dev.tiprobe.report;

import dev.tiprobe.ids.ClassToken;
import dev.tiprobe.ids.HumanNames;
import dev.tiprobe.ids.JfrNames;
import dev.tiprobe.ids.LoaderRef;
import dev.tiprobe.ids.MethodToken;
import dev.tiprobe.recording.Allocation;
import dev.tiprobe.recording.LockWait;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.Sample;
import dev.tiprobe.recording.Stack;
import jdk.jfr.EventType;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A JFR recording read into tiprobe's model, so that every view and export tiprobe makes of its
 * own recordings (flame graphs, folded stacks, pprof, text) reads the recordings users already
 * have: the JVM's own ({@code -XX:StartFlightRecording}, {@code jcmd JFR.dump}) and
 * async-profiler's ({@code -o jfr}).
 *
 * <p>What becomes what: {@code jdk.CPUTimeSample} (JFR's CPU-time sampler, Linux) a running
 * thread's sample worth the CPU its {@code samplingPeriod} says, one whose stack walk failed left
 * out; where a recording has none, {@code jdk.ExecutionSample} a running thread's sample, worth one sampling
 * period of CPU (the period the recording's settings name: JFR's {@code period} of the execution
 * samples, async-profiler's {@code interval} in nanoseconds; else 10 ms), as the two samplers
 * sample the same threads; {@code jdk.NativeMethodSample}
 * and async-profiler's {@code profiler.WallClockSample} samples of the wall view (the latter
 * running or not by its thread state, weighed by its {@code samples}); {@code jdk.ObjectAllocationSample}
 * an allocation of the bytes it stands for (its weight), or where a recording has none,
 * {@code jdk.ObjectAllocationInNewTLAB} (the TLAB's size) and {@code ...OutsideTLAB};
 * {@code jdk.JavaMonitorEnter} a contended wait, {@code jdk.JavaMonitorWait} a wait (or, for a
 * class's initialization, a contended one), {@code jdk.ThreadPark} and {@code
 * jdk.VirtualThreadPinned} parks classed as locks or waits ({@link JfrLocks}). The recording's mode is cpu unless it holds wall samples.
 */
public final class JfrRecordings {
    private JfrRecordings() {}

    private static final byte[] MAGIC = {'F', 'L', 'R', 0};
    /** The CPU an execution sample stands for where the recording does not say its period. */
    private static final long DEFAULT_PERIOD_NANOS = 10_000_000L;

    /** Whether {@code file} begins as a JFR recording does. */
    public static boolean isJfr(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return Arrays.equals(in.readNBytes(MAGIC.length), MAGIC);
        }
    }

    /**
     * Reads {@code file}, a JFR recording; a file JFR cannot parse throws {@link IOException} with
     * JFR's reason (also where JFR's parser fails with an exception or an internal error of its own).
     */
    public static Recording read(Path file) throws IOException {
        Reading r = new Reading();
        try (RecordingFile in = new RecordingFile(file)) {
            for (EventType t : in.readEventTypes()) {
                if (t.getName().equals("jdk.ExecutionSample")) r.executionSampleType = t.getId();
            }
            while (in.hasMoreEvents()) r.add(in.readEvent());
        } catch (RuntimeException | InternalError damaged) {
            throw new IOException("not a readable JFR recording: " + damaged, damaged);
        }
        return r.recording();
    }

    /** What a reading has gathered so far. */
    private static final class Reading {
        final Map<String, Integer> methodIds = new HashMap<>();
        final Map<Integer, String> methods = new HashMap<>();
        final Map<String, Integer> typeIds = new HashMap<>();
        final Map<Integer, String> types = new HashMap<>();
        final Map<Long, String> threads = new HashMap<>();
        final List<RecordedEvent> executionSamples = new ArrayList<>();
        final List<RecordedEvent> cpuTimeSamples = new ArrayList<>();
        final List<Sample> samples = new ArrayList<>();
        final List<Allocation> sampledAllocations = new ArrayList<>();
        final List<Allocation> tlabAllocations = new ArrayList<>();
        final List<LockWait> locks = new ArrayList<>();
        long periodNanos = DEFAULT_PERIOD_NANOS;
        /** The id of the execution sample's event type in this recording, whose period setting is wanted; -1: none. */
        long executionSampleType = -1;
        boolean wall;
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;

        void add(RecordedEvent e) {
            String type = e.getEventType().getName();
            switch (type) {
                case "jdk.ActiveSetting" -> period(e);
                case "jdk.ExecutionSample" -> executionSamples.add(e);  // weighed once the period is known
                case "jdk.CPUTimeSample" -> {
                    if (!e.getBoolean("failed")) cpuTimeSamples.add(e);  // a failed walk has no frames to credit
                }
                case "jdk.NativeMethodSample" -> sample(e, RecordingFormat.STATE_OTHER, 0, 1);
                case "profiler.WallClockSample" -> {
                    wall = true;
                    Object value = e.hasField("state") ? e.getValue("state") : null;
                    String state = String.valueOf(value);
                    byte s = state.contains("RUNNABLE") || state.contains("DEFAULT") ? RecordingFormat.STATE_RUNNABLE : RecordingFormat.STATE_WAITING;
                    sample(e, s, 0, e.hasField("samples") ? Math.max(1, e.getLong("samples")) : 1);
                }
                case "jdk.ObjectAllocationSample" -> allocation(e, sampledAllocations, e.getLong("weight"));
                case "jdk.ObjectAllocationInNewTLAB" -> allocation(e, tlabAllocations,
                        Math.max(e.getLong("tlabSize"), e.getLong("allocationSize")));
                case "jdk.ObjectAllocationOutsideTLAB" -> allocation(e, tlabAllocations, e.getLong("allocationSize"));
                case "jdk.JavaMonitorEnter" -> lock(e, RecordingFormat.LOCK_CONTENDED, e.getClass("monitorClass"));
                case "jdk.JavaMonitorWait" -> lock(e, RecordingFormat.LOCK_WAIT, e.getClass("monitorClass"));
                case JfrLocks.THREAD_PARK, JfrLocks.VIRTUAL_THREAD_PINNED -> park(e);
                default -> { }
            }
        }

        /**
         * The execution samples' period, where the recording's settings name it: JFR's {@code period}
         * of {@code jdk.ExecutionSample} ({@code 10 ms}, {@code 20 ms}); async-profiler's {@code interval},
         * in nanoseconds without a unit.
         */
        private void period(RecordedEvent e) {
            String name = e.getString("name");
            String value = e.getString("value");
            if (value == null) return;
            if ("interval".equals(name) && value.strip().matches("\\d{1,18}")) {
                long nanos = Long.parseLong(value.strip());
                if (nanos > 0) periodNanos = nanos;
                return;
            }
            if (e.getLong("id") != executionSampleType || !"period".equals(name)) return;
            String[] parts = value.trim().split("\\s+");
            try {
                long n = Long.parseLong(parts[0]);
                String unit = parts.length > 1 ? parts[1] : "ms";
                long nanos = switch (unit) {
                    case "ns" -> n;
                    case "us" -> n * 1_000L;
                    case "ms" -> n * 1_000_000L;
                    case "s" -> n * 1_000_000_000L;
                    default -> 0;
                };
                if (nanos > 0) periodNanos = nanos;  // the last: a recording whose settings changed keeps the newest
            } catch (NumberFormatException notANumber) {
                // "everyChunk", "beginChunk": not a sampling period
            }
        }

        private void sample(RecordedEvent e, byte state, long cpuNanos, long ticks) {
            Stack s = stack(e.getStackTrace());
            if (s == null) return;
            long thread = thread(threadOf(e));
            samples.add(new Sample(time(e), thread, threads.get(thread), state, cpuNanos, ticks, s));
        }

        private void allocation(RecordedEvent e, List<Allocation> into, long bytes) {
            Stack s = stack(e.getStackTrace());
            if (s == null) return;
            long thread = thread(e.getThread());
            int type = type(e.getClass("objectClass"));
            into.add(new Allocation(time(e), thread, threads.get(thread), type, types.get(type), Math.max(1, bytes), 0,
                    s, 0));
        }

        private void lock(RecordedEvent e, byte kind, RecordedClass monitor) {
            Stack s = stack(e.getStackTrace());
            if (s == null) return;
            JfrLocks.Monitor m = JfrLocks.monitor(e, kind, typeName(monitor));
            long owner = m.previous() == null ? 0 : thread(m.previous());
            long thread = thread(e.getThread());
            locks.add(new LockWait(time(e) + e.getDuration().toNanos(), thread, threads.get(thread), m.kind(), typeNamed(m.type()),
                    m.type(), e.getDuration().toNanos(), s, owner, owner == 0 ? null : threads.get(owner),
                    Stack.NONE));
        }

        /** A park ({@link JfrLocks#park}), credited from where the program called in. */
        private void park(RecordedEvent e) {
            JfrLocks.Park park = JfrLocks.park(e);
            if (park == null) return;
            Stack s = stack(e.getStackTrace(), park.cutFrames());
            if (s == null) return;
            long thread = thread(e.getThread());
            locks.add(new LockWait(time(e) + e.getDuration().toNanos(), thread, threads.get(thread), park.kind(), typeNamed(park.type()),
                    park.type(), e.getDuration().toNanos(), s, 0, null, Stack.NONE));
        }

        private static RecordedThread threadOf(RecordedEvent e) {
            return e.hasField("sampledThread") ? e.getThread("sampledThread") : e.getThread();
        }

        private long time(RecordedEvent e) {
            Instant at = e.getStartTime();
            long nanos = at.getEpochSecond() * 1_000_000_000L + at.getNano();
            start = Math.min(start, nanos);
            end = Math.max(end, nanos + e.getDuration().toNanos());
            return nanos;
        }

        /** The thread's id (its Java id, else the OS's), its name remembered. */
        private long thread(RecordedThread t) {
            if (t == null) return 0;
            long id = t.getJavaThreadId() > 0 ? t.getJavaThreadId() : t.getOSThreadId();
            String name = t.getJavaName() != null ? t.getJavaName() : t.getOSName();
            threads.putIfAbsent(id, name == null ? "thread#" + id : name);
            return id;
        }

        private int type(RecordedClass c) {
            return typeNamed(typeName(c));
        }

        /** A class as the views name it ({@link JfrNames#typeName}); a name no JVM gave (a writer's own) as it is. */
        private static String typeName(RecordedClass c) {
            if (c == null) return "[unknown]";
            try {
                return JfrNames.typeName(c.getName());
            } catch (RuntimeException notADescriptor) {
                return c.getName();
            }
        }

        /** The id of a type as the views name it. */
        private int typeNamed(String name) {
            return typeIds.computeIfAbsent(name, n -> {
                int id = typeIds.size() + 1;
                types.put(id, n);
                return id;
            });
        }

        /** Leaf first, as tiprobe's; a stack JFR cut short gets the [truncated] root. */
        private Stack stack(RecordedStackTrace trace) {
            return stack(trace, 0);
        }

        /** As {@link #stack(RecordedStackTrace)}, the first {@code skip} frames left out. */
        private Stack stack(RecordedStackTrace trace, int skip) {
            if (trace == null || trace.getFrames().size() <= skip) return null;
            List<RecordedFrame> frames = trace.getFrames().subList(skip, trace.getFrames().size());
            int n = frames.size() + (trace.isTruncated() ? 1 : 0);
            int[] ids = new int[n];
            int[] lines = new int[n];
            for (int i = 0; i < frames.size(); i++) {
                RecordedFrame f = frames.get(i);
                ids[i] = method(f.getMethod());
                lines[i] = Math.max(0, f.getLineNumber());
            }
            if (trace.isTruncated()) ids[n - 1] = Recording.TRUNCATED;
            return Stack.read(ids, lines);
        }

        private int method(RecordedMethod m) {
            if (m == null) return 0;
            String className = m.getType() == null ? "[unknown]" : className(m.getType());
            String key = className + '.' + m.getName() + m.getDescriptor();
            Integer known = methodIds.get(key);
            if (known != null) return known;
            int id = methodIds.size() + 1;
            methodIds.put(key, id);
            methods.put(id, humanName(className, m));
            return id;
        }

        /** {@code com.foo.Bar.run(int) : void}, as tiprobe names a method; a native frame by its library and symbol. */
        private static String humanName(String className, RecordedMethod m) {
            try {
                ClassToken owner = new ClassToken(className, LoaderRef.APP, null, null, null);
                return HumanNames.method(new MethodToken(owner, m.getName(), m.getDescriptor(), null, m.getModifiers(), new int[0]));
            } catch (RuntimeException notJava) {
                return className + "." + m.getName();  // async-profiler's native and kernel frames: no descriptor
            }
        }

        /** A class's binary name as tiprobe's tokens keep it ({@code com.foo.Bar$Inner}, {@code Foo$$Lambda/hidden}). */
        private static String className(RecordedClass c) {
            return JfrNames.binaryName(c.getName().replace('/', '.'));
        }

        Recording recording() {
            if (cpuTimeSamples.isEmpty()) {
                for (RecordedEvent e : executionSamples) sample(e, RecordingFormat.STATE_RUNNABLE, periodNanos, 1);
            } else {
                for (RecordedEvent e : cpuTimeSamples) {
                    long weight = e.getDuration("samplingPeriod").toNanos();
                    sample(e, RecordingFormat.STATE_RUNNABLE, weight, 1);
                    periodNanos = weight;
                }
            }
            Map<String, String> info = new HashMap<>();
            info.put(RecordingFormat.INFO_SAMPLE_MODE, wall ? "wall" : "cpu");
            info.put(RecordingFormat.INFO_INTERVAL, Long.toString(periodNanos));
            info.put(RecordingFormat.INFO_SAMPLE_SOURCE, RecordingFormat.SAMPLE_SOURCE_JFR_FILE);
            List<Allocation> allocations = sampledAllocations.isEmpty() ? tlabAllocations : sampledAllocations;
            samples.sort(java.util.Comparator.comparingLong(Sample::epochNanos));
            boolean empty = start == Long.MAX_VALUE;
            return new Recording(1, empty ? 0 : start, empty ? 0 : end, Map.copyOf(info), Map.copyOf(methods), Map.of(),
                    Map.copyOf(threads), List.copyOf(samples), List.of(), Map.of(), List.of(),
                    new Recording.Tracing(Map.of(), List.of(), List.of(), List.of()),
                    new Recording.Events(Map.copyOf(types), List.copyOf(allocations), java.util.Set.of(), List.copyOf(locks), List.of()),
                    Map.of(), null);
        }
    }
}
