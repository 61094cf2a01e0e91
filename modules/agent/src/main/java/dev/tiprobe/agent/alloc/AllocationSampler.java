package dev.tiprobe.agent.alloc;

import dev.tiprobe.agent.jvm.AgentThreads;
import dev.tiprobe.agent.registry.CallbackStacks;
import dev.tiprobe.agent.registry.Registry;
import dev.tiprobe.agent.sink.EventEngine;
import dev.tiprobe.agent.sink.Recorder;
import dev.tiprobe.jvmti.Capability;
import dev.tiprobe.jvmti.Event;
import dev.tiprobe.jvmti.Events;
import dev.tiprobe.jvmti.Jvmti;
import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.options.AgentOptions.Allocations;
import dev.tiprobe.recording.AllocInterval;
import dev.tiprobe.recording.Allocation;
import dev.tiprobe.recording.Freed;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.Reply;
import dev.tiprobe.recording.Stack;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Allocation profiling: JVMTI's SampledObjectAlloc, about one object per interval a thread
 * allocates (the JVM picks them; {@code SetHeapSamplingInterval}), each with its class, size and
 * the allocating stack. The class comes with the event as a reference, so nothing is looked up by
 * name or loaded; it is named the way the ID map names classes (a hidden class's address suffix
 * made stable).
 *
 * <p>For the live view, each sampled object is tagged ({@link #OBJECT_TAGS} and up, a range no
 * registry uses) and ObjectFree tells when it is collected: the recording holds FREED records, and
 * a sample whose tag never got one was alive at the end. At most {@link Allocations#MAX_TRACKED}
 * objects are tracked at once; later samples are counted ({@link RecordingFormat#INFO_LIVE_UNTRACKED})
 * until collections make room.
 *
 * <p>Sampling keeps under its overhead budget ({@link IntervalBudget}): when the program allocates
 * so fast that the samples would cost more, the interval is raised (and lowered again later), each
 * change written to the recording, so each sample weighs by the interval it was taken at.
 *
 * <p>Allocations of tiprobe's own threads and of its callbacks (the JVM drops events raised inside
 * a callback; {@code Events} counts them) are never the application's.
 */
public final class AllocationSampler extends EventEngine<AllocationSampler.Sampled> {
    /** Object tags have this bit set; registries' class tags stay far below it. */
    static final long OBJECT_TAGS = 1L << 62;
    /** How often the overhead budget looks at what sampling costs. */
    private static final long LOOK_NANOS = 500_000_000L;

    /** What the callback queues: the moment, the thread, the class's name, the size, the tag and the stack. */
    record Sampled(long epochNanos, Thread thread, String type, long size, long tag, Stack stack) {}

    private final Jvmti jvmti;
    private final CallbackStacks stacks;
    private final CallbackStacks.Site site;
    private final Allocations options;
    private final List<Events.Registration> registrations = new ArrayList<>();
    private final AtomicLong nextTag = new AtomicLong(OBJECT_TAGS);
    private final AtomicInteger tracked = new AtomicInteger();
    private final AtomicLong untracked = new AtomicLong();
    /** Collected objects' times and tags, from the service thread. */
    private final ConcurrentLinkedQueue<long[]> freed = new ConcurrentLinkedQueue<>();
    /** Samples the JVM has offered, tiprobe's own included: what the budget weighs. */
    private final LongAdder offered = new LongAdder();
    private final IntervalBudget budget;
    private long lastLook;
    /** The interval sampled at now, for status; the budget's, read off the engine's thread. */
    private volatile long interval;

    private AllocationSampler(Jvmti jvmti, CallbackStacks stacks, Allocations options, Recorder recorder) {
        super("tiprobe-alloc", recorder);
        this.jvmti = jvmti;
        this.stacks = stacks;
        this.site = stacks.site();
        this.options = options;
        this.budget = new IntervalBudget(options.overheadBudget(), options.intervalBytes());
        this.interval = options.intervalBytes();
    }

    /** The sampling interval now, in bytes. */
    private long interval() {
        return interval;
    }

    /** Whether the overhead budget has widened the interval past the one asked for. */
    private boolean widened() {
        return interval != options.intervalBytes();
    }

    /** {@code allocations every 512 KiB (wider if sampling costs over 1 % of the CPU; live objects tracked)}. */
    @Override
    public String describe() {
        List<String> notes = new ArrayList<>();
        if (options.overheadBudget() > 0) {
            notes.add("wider if sampling costs over " + AgentOptions.percentText(options.overheadBudget()) + " % of the CPU");
        }
        if (options.live()) notes.add("live objects tracked");
        return "allocations every " + size(options.intervalBytes()) + (notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")");
    }

    @Override
    public Progress progress() {
        long n = written();  // read once: the count and its text agree
        return new Progress(Reply.ALLOCATIONS, n, n + " allocation samples" + (widened() ? " (interval now " + size(interval()) + ")" : ""));
    }

    /** {@code 512 KiB}, {@code 16 MiB}, {@code 1000 bytes}. */
    private static String size(long bytes) {
        if (bytes % (1 << 20) == 0) return (bytes >> 20) + " MiB";
        return bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " bytes";
    }

    /** Starts sampling allocations into {@code recorder}, their stacks taken by {@code stacks}. */
    public static AllocationSampler start(Jvmti jvmti, CallbackStacks stacks, Allocations options, Recorder recorder)
            throws IOException {
        jvmti.addCapabilities(EnumSet.of(Capability.CAN_GENERATE_SAMPLED_OBJECT_ALLOC_EVENTS, Capability.CAN_TAG_OBJECTS,
                Capability.CAN_GENERATE_OBJECT_FREE_EVENTS));
        recorder.info(RecordingFormat.INFO_ALLOC_INTERVAL, Long.toString(options.intervalBytes()));
        if (options.live()) recorder.info(RecordingFormat.INFO_ALLOC_LIVE, "yes");
        if (options.overheadBudget() > 0) recorder.info(RecordingFormat.INFO_ALLOC_OVERHEAD, Double.toString(options.overheadBudget()));
        AllocationSampler s = new AllocationSampler(jvmti, stacks, options, recorder);
        s.startWriting();
        try {
            if (options.live()) s.registrations.add(jvmti.events().on(Event.OBJECT_FREE, s::freed));
            jvmti.setHeapSamplingInterval((int) options.intervalBytes());
            s.registrations.add(jvmti.events().on(Event.SAMPLED_OBJECT_ALLOC, s::sampled));
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
        return s;
    }

    /** On the allocating thread, inside the callback: only what cannot wait. */
    private void sampled(Thread thread, Object object, Class<?> type, long size) {
        offered.increment();
        if (tiprobes(thread)) return;
        Stack stack = stacks.inCallback(site);
        if (stack == null) return;  // tiprobe's own allocation
        long tag = 0;
        if (options.live()) {
            if (tracked.incrementAndGet() <= Allocations.MAX_TRACKED) {
                tag = nextTag.getAndIncrement();
                jvmti.setTag(object, tag);
            } else {
                tracked.decrementAndGet();
                untracked.incrementAndGet();
            }
        }
        offer(new Sampled(recorder.now(), thread, Registry.typeName(type), size, tag, stack));
    }

    /** On the VM's service thread: a tracked object was collected; written by the engine's thread, never waited for here. */
    private void freed(long tag) {
        if ((tag & OBJECT_TAGS) == 0) return;  // a class's tag: the registry's
        tracked.decrementAndGet();
        freed.offer(new long[] {recorder.now(), tag});
    }

    @Override
    protected void tick() {
        try {
            long now = System.nanoTime();
            if (now - lastLook >= LOOK_NANOS) {
                lastLook = now;
                long next = budget.look(now, offered.sum(), AgentThreads.processCpuNanos());
                if (next != interval) {
                    jvmti.setHeapSamplingInterval((int) next);
                    interval = next;
                    recorder.allocInterval(new AllocInterval(recorder.now(), next));
                }
            }
            long[] f;
            while ((f = freed.poll()) != null) recorder.write(f[0], Freed.KIND, new Freed(f[1]));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    protected boolean write(Sampled s) throws IOException {
        Thread t = s.thread();
        return recorder.write(s.epochNanos(), Allocation.KIND,
                new Allocation(s.epochNanos(), t.threadId(), t.getName(), s.type(), s.size(), s.tag(), s.stack()));
    }

    @Override
    protected void stopEvents() {
        registrations.forEach(Events.Registration::close);
        registrations.clear();
        try {
            if (untracked.get() > 0) recorder.info(RecordingFormat.INFO_LIVE_UNTRACKED, Long.toString(untracked.get()));
        } catch (IOException ignored) {
            // the count is a courtesy
        }
    }
}
