package dev.tiprobe.probe;

import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The agent's side of the probe: starting and ending a collection, and reading what the probes
 * gathered. Injected code never calls this class ({@link Probe} is all it calls), so what runs on
 * every traced call stays in one small class.
 */
public final class ProbeControl {
    private ProbeControl() {}

    /** One method's time figures, merged over every thread: inclusive nanoseconds and their histogram. */
    public record TimeFigures(long calls, long totalNanos, long minNanos, long maxNanos, long[] histogram) {}

    /**
     * Starts a new collection: clears every count, time and traced call, and sets what trace mode
     * records. Call before classes with probes run for the new session.
     */
    public static void reset(TraceSettings settings, int traceCapacity) {
        synchronized (Probe.LOCK) {
            Probe.foldEnded();
            for (int i = 0; i < Probe.platformStateCount; i++) Probe.platformStates[i].clear();
            Probe.ENDED.clear();
            Probe.sharedTimes = new long[Probe.sharedTimes.length][];
            Probe.sharedCounts = new long[Probe.sharedCounts.length][];
            Probe.calls = new Call[Math.max(0, traceCapacity)];
            Probe.firstCalls = new Call[0];
            Probe.setStaticVolatile(Probe.NEXT_CALL, 0L);
            Probe.setStaticVolatile(Probe.DROPPED, 0L);
            Probe.setStaticVolatile(Probe.FAILURES, 0L);
            Probe.windowStart = System.nanoTime();
            Probe.setStaticVolatile(Probe.WINDOW, 0L);
            Probe.trace = settings;
        }
    }

    /**
     * Turns the probes of {@code slots} off where they are: from now on they record nothing and
     * cost a load and a branch a call. Time and trace mode only; a count probe costs no more than
     * that check would, so it is taken out by changing its class, or left counting.
     */
    public static void turnOff(int[] slots) {
        synchronized (Probe.LOCK) {
            int length = Probe.turnedOff.length;
            for (int slot : slots) length = Math.max(length, slot + 1);
            boolean[] off = java.util.Arrays.copyOf(Probe.turnedOff, length);
            for (int slot : slots) off[slot] = true;
            Probe.turnedOff = off;
        }
    }

    /**
     * Makes room for slots below {@code slots} in the shared arrays; call before such a slot can
     * run. Their chunks are made when a virtual thread first runs one of their slots.
     */
    public static void reserve(int slots) {
        synchronized (Probe.LOCK) {
            int chunks = (slots + Probe.CHUNK - 1) / Probe.CHUNK;
            if (chunks <= Probe.sharedCounts.length) return;
            // Chunks are made under the same lock, so none is made in the old arrays meanwhile.
            Probe.sharedTimes = java.util.Arrays.copyOf(Probe.sharedTimes, chunks);
            Probe.sharedCounts = java.util.Arrays.copyOf(Probe.sharedCounts, chunks);
        }
    }

    /**
     * How trace mode reads fields in packages a named module keeps closed: {@code opener} opens a
     * class's package to the probe (the agent does it with its Instrumentation). Null: those
     * fields are shown as unreadable.
     */
    public static void openFieldsWith(Consumer<Class<?>> opener) {
        ObjectFields.opener = opener;
    }

    /**
     * How calls kept by their duration get their stacks: {@code walker} returns the calling
     * thread's stack (in the agent's form, which {@link Call#callerStack()} hands back), called on
     * the thread that made the call as it ends, only for calls kept; {@code namer} turns a stack
     * taken before the walker was installed ({@link EarlyStack}) into that form. Null, null: none;
     * the kept calls' early stacks are named first, while the namer still can, and those it
     * cannot name (there was none: the agent's start failed) are let go, with the classes they hold.
     */
    public static void keepCallerStacksWith(java.util.function.Supplier<Object> walker, Function<EarlyStack, Object> namer) {
        Probe.callerStacks = walker;
        Probe.callerStacksExpected = false;
        if (namer == null) {
            for (Call c : tracedCalls()) c.dropEarlyStack();
        }
        Probe.earlyStackNamer = namer;
    }

    /**
     * A walker for kept calls' stacks will be installed ({@link #keepCallerStacksWith}), in a
     * session begun before the agent could link JVMTI: until then, kept calls take Java's frames
     * ({@link EarlyStack}). Installing a walker or none ends the wait; so must a start that fails.
     * Readies that walk now, on the agent's thread, so that its first use on the application's
     * links nothing.
     */
    public static void expectCallerStacks() {
        EarlyStack.take();
        Probe.callerStacksExpected = true;
    }

    /**
     * Whether a thread of this name is profiling machinery rather than the program: tiprobe's own
     * threads ({@code tiprobe-…}) and JFR's ({@code JFR Periodic Tasks}, {@code JFR Recorder
     * Thread} …). Probes leave their calls out, as every view leaves out their samples and events
     * ({@code EventEngine.machinery} in the agent, which cannot count on this class being loadable).
     * Probes also leave out the JVM's {@code Attach Listener}, which runs attached agents (tiprobe's
     * own start and stop) and jcmd's commands, never the program's code; the views tell its
     * samples of tiprobe's start by their frames ({@code agentmain}).
     */
    public static boolean machinery(String threadName) {
        return ThreadState.machinery(threadName);
    }

    /**
     * Marks the calling thread as running tiprobe's own work ({@code true}), such as the agent's
     * start on the program's main thread before {@code main}, or as the program's again: probes
     * leave out the calls of a marked thread. Returns whether it was marked before, to restore.
     */
    public static boolean tiprobesWork(boolean on) {
        return Probe.markTiprobes(on);
    }

    /**
     * Tells the probe that tiprobe's own work just took {@code nanos} on the calling thread (a
     * class it loaded was instrumented): the traced calls running on it leave that time out.
     */
    public static void ownWorkTook(long nanos) {
        Probe.ownWork(nanos);
    }

    /**
     * Trace mode records no call of a slot below {@code firstSlot}: such slots are retired, their
     * probes left in classes an earlier session could not restore (they were running a loop).
     */
    public static void traceFrom(int firstSlot) {
        synchronized (Probe.LOCK) {
            Probe.firstTracedSlot = firstSlot;
            // Slots below stay off: their probes are left in classes an earlier session could not
            // restore. The slots from here on are the new session's methods, all on.
            boolean[] off = Probe.turnedOff;
            if (off.length > firstSlot) Probe.turnedOff = java.util.Arrays.copyOf(off, firstSlot);
        }
    }

    /** Stops recording traced calls, and counting them in trace mode (count and time mode's probes count until they are removed). */
    public static void stopTracing() {
        Probe.trace = TraceSettings.OFF;
    }

    /** Calls per slot, summed over all threads, for slots below {@code slots} (count and trace mode count at entry). */
    public static long[] counts(int slots) {
        return sum(slots, false);
    }

    /**
     * Calls per slot in time mode, which counts at the exits, summed over all threads: what the
     * overhead budget reads every half second, without merging and converting every time figure.
     */
    public static long[] timedCalls(int slots) {
        return sum(slots, true);
    }

    /**
     * Per slot, the calls summed over all threads: counted at entry, or at the exits in time mode
     * ({@code timed}); in every platform thread's own chunks, the ended threads' and the shared
     * (virtual thread) chunks.
     */
    private static long[] sum(int slots, boolean timed) {
        long[] sum = new long[slots];
        int stride = timed ? Probe.TIME_STRIDE : 1, at = timed ? Probe.CALLS_AT : 0;
        synchronized (Probe.LOCK) {
            long[][] shared = timed ? Probe.sharedTimes : Probe.sharedCounts;
            Probe.foldEnded();
            for (int i = 0; i < Probe.platformStateCount; i++) {
                ThreadState state = Probe.platformStates[i];
                eachSlot(timed ? state.times : state.counts, slots, stride, (slot, c, j) -> sum[slot] += c[j + at]);
            }
            for (int s = 0; s < slots; s++) sum[s] += Probe.ENDED.calls(s, timed);
            for (int s = 0; s < Math.min(slots, shared.length * Probe.CHUNK); s++) {
                long[] chunk = Probe.chunkAcquire(shared, s / Probe.CHUNK);
                if (chunk != null) sum[s] += Probe.longVolatile(chunk, (s % Probe.CHUNK) * stride + at);
            }
        }
        return sum;
    }

    /** What {@link #eachSlot} hands over: a slot, its thread's chunk, and where in it the slot's longs begin. */
    private interface SlotVisitor {
        void visit(int slot, long[] chunk, int index);
    }

    /** Visits each slot below {@code slots} that one thread's chunks ({@code stride} longs a slot) hold. */
    private static void eachSlot(long[][] chunks, int slots, int stride, SlotVisitor visitor) {
        for (int k = 0; k < chunks.length; k++) {
            long[] c = chunks[k];
            int first = k << ThreadState.SHIFT;
            for (int j = 0; c != null && j < ThreadState.SLOTS && first + j < slots; j++) visitor.visit(first + j, c, j * stride);
        }
    }

    /** Each slot's time figures, merged over all threads, for slots below {@code slots}. */
    public static TimeFigures[] timeFigures(int slots) {
        return timeFigures(java.util.stream.IntStream.range(0, slots).toArray());
    }

    /**
     * The time figures of {@code slots}, merged over all threads, in their order. Only those
     * asked for: under class churn the slots handed out run to many times those in use (96,000
     * for 564 once G1 had not unloaded for five minutes), and figures for all of them, made
     * every time tracing's figures were written, took tens of megabytes of the heap for a moment.
     */
    public static TimeFigures[] timeFigures(int[] slots) {
        long[] t = times(slots);
        double perNano = Clock.ticksPerNanosecond();
        // A histogram bucket of ticks moves down by log2(ticks per ns) buckets, to the nearest:
        // within one bucket of where the duration in nanoseconds would fall.
        int shift = (int) Math.round(Math.log(perNano) / Math.log(2));
        TimeFigures[] out = new TimeFigures[slots.length];
        for (int k = 0; k < slots.length; k++) {
            int i = k * Probe.TIME_STRIDE;
            long[] histogram = new long[Probe.BUCKETS];
            for (int b = 0; b < Probe.BUCKETS; b++) {
                histogram[Math.clamp(b - shift, 0, Probe.BUCKETS - 1)] += t[i + Probe.BUCKETS_AT + b];
            }
            out[k] = new TimeFigures(t[i + Probe.CALLS_AT], nanos(t[i + Probe.TOTAL_AT], perNano), nanos(t[i + Probe.MIN_AT], perNano),
                    nanos(t[i + Probe.MAX_AT], perNano), histogram);
        }
        return out;
    }

    private static long nanos(long ticks, double perNano) {
        return Math.round(ticks / perNano);
    }

    /**
     * Chooses time mode's clock for this JVM: {@code ticks}, a reader of the CPU's time-stamp
     * counter ({@code () -> long}), or null for {@code System.nanoTime()}. Only the first choice
     * before any timed call counts; returns whether this one did.
     */
    public static boolean chooseClock(java.lang.invoke.MethodHandle ticks) {
        synchronized (Probe.LOCK) {
            if (Clock.fixed) return false;
            Clock.chosen = ticks;
            return Clock.Fixed.READER == ticks;  // fixes the choice now, before the first timed call
        }
    }

    /** The clock time mode reads: {@code time-stamp counter (2.596 ticks/ns)} or {@code System.nanoTime()}. */
    public static String clock() {
        return Clock.describe();
    }

    /** Whether time mode reads the time-stamp counter; else it reads {@code System.nanoTime()}. */
    public static boolean readsTimeStampCounter() {
        return Clock.Fixed.READER != null;
    }

    /** The time figures of {@code slots} ({@code Probe.TIME_STRIDE} longs each, in ticks, in their order), merged over all threads. */
    private static long[] times(int[] slots) {
        long[] sum = new long[slots.length * Probe.TIME_STRIDE];
        synchronized (Probe.LOCK) {
            Probe.foldEnded();
            for (int i = 0; i < Probe.platformStateCount; i++) {
                ThreadState state = Probe.platformStates[i];
                for (int k = 0; k < slots.length; k++) {
                    long[] chunk = state.timesIfAny(slots[k]);
                    if (chunk != null) merge(sum, k * Probe.TIME_STRIDE, chunk, (slots[k] & ThreadState.MASK) * Probe.TIME_STRIDE, false);
                }
            }
            long[][] shared = Probe.sharedTimes;
            for (int k = 0; k < slots.length; k++) {
                int slot = slots[k];
                Probe.ENDED.addTo(slot, sum, k * Probe.TIME_STRIDE);
                long[] chunk = slot / Probe.CHUNK < shared.length ? Probe.chunkAcquire(shared, slot / Probe.CHUNK) : null;
                if (chunk != null) merge(sum, k * Probe.TIME_STRIDE, chunk, (slot % Probe.CHUNK) * Probe.TIME_STRIDE, true);
            }
        }
        return sum;
    }

    /** Adds one slot's figures at {@code i} of {@code from} to {@code into} at {@code at}; a shared (virtual thread) chunk is read atomically. */
    private static void merge(long[] into, int at, long[] from, int i, boolean shared) {
        if (!shared) {
            ThreadState.add(into, at, from, i);
            return;
        }
        long count = Probe.longVolatile(from, i + Probe.CALLS_AT);
        if (count == 0) return;
        ThreadState.addSummary(into, at, count, Probe.longVolatile(from, i + Probe.TOTAL_AT), Probe.longVolatile(from, i + Probe.MIN_AT),
                Probe.longVolatile(from, i + Probe.MAX_AT));
        for (int b = Probe.BUCKETS_AT; b < Probe.TIME_STRIDE; b++) into[at + b] += Probe.longVolatile(from, i + b);
    }

    /**
     * Gives up {@code slots}, whose methods' classes have unloaded (so no code of theirs runs):
     * their counts, times and traced calls are zeroed and dropped, and the slots may be handed to
     * other methods. Read their figures first.
     */
    public static void release(int[] slots) {
        synchronized (Probe.LOCK) {
            for (int i = 0; i < Probe.platformStateCount; i++) {
                for (int slot : slots) Probe.platformStates[i].clear(slot);
            }
            for (int slot : slots) Probe.ENDED.clear(slot);
            long[][] counts = Probe.sharedCounts;
            long[][] times = Probe.sharedTimes;
            Call[] firsts = Probe.firstCalls;
            java.util.BitSet released = new java.util.BitSet();
            for (int slot : slots) {
                released.set(slot);
                int chunk = slot / Probe.CHUNK;
                long[] c = chunk < counts.length ? Probe.chunkAcquire(counts, chunk) : null;
                if (c != null) Probe.setLongVolatile(c, slot % Probe.CHUNK, 0L);
                long[] t = chunk < times.length ? Probe.chunkAcquire(times, chunk) : null;
                for (int j = 0; t != null && j < Probe.TIME_STRIDE; j++) {
                    Probe.setLongVolatile(t, (slot % Probe.CHUNK) * Probe.TIME_STRIDE + j, 0L);
                }
                if (slot < firsts.length) Probe.setCallRelease(firsts, slot, null);
            }
            Call[] buffer = Probe.calls;
            for (int i = 0; i < buffer.length; i++) {
                Call c = Probe.callAcquire(buffer, i);
                if (c != null && released.get(c.slot())) Probe.casCall(buffer, i, c, null);
            }
            boolean[] off = Probe.turnedOff;
            if (off.length > 0 && java.util.Arrays.stream(slots).anyMatch(slot -> slot < off.length && off[slot])) {
                boolean[] on = off.clone();  // the next method given one of these slots records from its first call
                for (int slot : slots) if (slot < on.length) on[slot] = false;
                Probe.turnedOff = on;
            }
        }
    }

    /**
     * Drops every platform thread's chunks of figures none of whose slots {@code inUse} holds
     * (slots below {@code slotCount}): a burst of classes that unload later leaves no arrays
     * behind (under class churn those were 12 MB for about 1,400 slots in use of 18,000 handed out).
     * The caller hands out no slot meanwhile. The same for virtual threads' shared chunks.
     */
    public static void dropFreeChunks(int slotCount, java.util.function.IntPredicate inUse) {
        java.util.BitSet free = freeChunks(slotCount, ThreadState.SLOTS, inUse);
        java.util.BitSet freeShared = freeChunks(slotCount, Probe.CHUNK, inUse);
        synchronized (Probe.LOCK) {
            for (int i = 0; i < Probe.platformStateCount; i++) Probe.platformStates[i].drop(free);
            long[][] counts = Probe.sharedCounts;
            long[][] times = Probe.sharedTimes;
            for (int k = freeShared.nextSetBit(0); k >= 0 && k < counts.length; k = freeShared.nextSetBit(k + 1)) {
                Probe.chunkRelease(counts, k, null);
                Probe.chunkRelease(times, k, null);
            }
        }
    }

    /** The chunks of {@code size} slots none of whose slots below {@code slotCount} is {@code inUse}. */
    private static java.util.BitSet freeChunks(int slotCount, int size, java.util.function.IntPredicate inUse) {
        java.util.BitSet free = new java.util.BitSet();
        for (int k = 0; k * size < slotCount; k++) {
            boolean any = false;
            for (int slot = k * size; slot < Math.min(slotCount, (k + 1) * size) && !any; slot++) any = inUse.test(slot);
            if (!any) free.set(k);
        }
        return free;
    }

    /**
     * What the probes' figures take in the heap, in bytes: every thread's chunks, those kept
     * for ended threads, and the shared ones of virtual threads. For the agent's footprint.
     */
    public static long footprintBytes() {
        long bytes = 0;
        synchronized (Probe.LOCK) {
            for (int i = 0; i < Probe.platformStateCount; i++) {
                bytes += bytes(Probe.platformStates[i].counts) + bytes(Probe.platformStates[i].times);
            }
            bytes += Probe.ENDED.bytes();
            bytes += bytes(Probe.sharedCounts) + bytes(Probe.sharedTimes);
        }
        return bytes;
    }

    private static long bytes(long[][] chunks) {
        long bytes = 16L + 4L * chunks.length;
        for (long[] c : chunks) if (c != null) bytes += 16L + 8L * c.length;
        return bytes;
    }

    /** The traced calls recorded so far, in the order they started. */
    public static Call[] tracedCalls() {
        java.util.Set<Call> kept = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        Call[] buffer = Probe.calls;
        long n = Math.min(buffer.length, Probe.staticVolatile(Probe.NEXT_CALL));
        for (int i = 0; i < n; i++) {
            Call c = Probe.callAcquire(buffer, i);
            if (c != null) kept.add(c);
        }
        Call[] firsts = Probe.firstCalls;
        for (int i = 0; i < firsts.length; i++) {
            Call c = Probe.callAcquire(firsts, i);
            if (c != null) kept.add(c);
        }
        Call[] out = kept.toArray(new Call[0]);
        java.util.Arrays.sort(out, java.util.Comparator.comparingLong(Call::startNanos));
        return out;
    }

    /** Traced calls not recorded because of the rate cap, the sampling ratio or a full buffer. */
    public static long droppedCalls() {
        long sum = Probe.staticVolatile(Probe.DROPPED);
        synchronized (Probe.LOCK) {
            Probe.foldEnded();
            for (int i = 0; i < Probe.platformStateCount; i++) sum += Probe.platformStates[i].dropped;
            sum += Probe.ENDED.dropped;
        }
        return sum;
    }

    /** Exceptions caught inside probe code (each swallowed so the program never sees it). */
    public static long failures() {
        return Probe.staticVolatile(Probe.FAILURES);
    }
}
