package dev.tiprobe.probe;

import java.util.Arrays;

/**
 * One traced call: which method, on which thread at which depth, when, its arguments as they were
 * at the call, and how it ended. Written by the calling thread; read by the agent after the call
 * ended (or while it still runs, then {@link #outcome()} is {@link #RUNNING}).
 */
public final class Call {
    public static final byte RUNNING = 0;
    public static final byte RETURNED = 1;
    public static final byte THREW = 2;

    private final int slot;
    private final ThreadState owner;
    private final int depth;
    private final long startNanos;
    /** The owner's {@link ThreadState#ownNanos} at the start: tiprobe's work during the call is not the call's time. */
    private final long ownNanosAtStart;
    private final TraceSettings settings;
    private final boolean recording;
    /** Kept or not at its end, by its duration or the condition ({@link TraceSettings#decidedAtEnd()}); not yet in the buffer. */
    private final boolean pending;
    private Object[] args = NO_ARGS;
    private volatile long endNanos;
    /** tiprobe's own work on the thread while the call ran: left out of {@link #durationNanos()}, not out of the clock's times. */
    private long ownNanos;
    private volatile byte outcome;
    private Object result;
    /**
     * Where a call kept by its duration was called from, as the agent's walker took it, or an
     * {@link EarlyStack} until the agent names it; null for other calls.
     */
    private volatile Object callerStack;
    /**
     * Time and calls by call site of the method's body ({@link Probe#siteEnter}), where the
     * instrumenter timed its call sites (a watch's call tree); null until the first site.
     */
    private long[] siteNanos;
    private long[] siteCalls;
    /** The site entered and not yet left (-1: none), when, and the owner's {@link ThreadState#ownNanos} then. */
    private int openSite = -1;
    private long openSiteNanos;
    private long openSiteOwnNanos;

    private static final Object[] NO_ARGS = new Object[0];

    Call(int slot, ThreadState owner, int depth, long startNanos, TraceSettings settings, boolean pending) {
        this.slot = slot;
        this.owner = owner;
        this.depth = depth;
        this.startNanos = startNanos;
        this.ownNanosAtStart = owner.ownNanos;
        this.settings = settings;
        this.recording = true;
        this.pending = pending;
    }

    private Call(ThreadState owner) {
        this.slot = -1;
        this.owner = owner;
        this.depth = -1;
        this.startNanos = 0;
        this.ownNanosAtStart = 0;
        this.settings = TraceSettings.OFF;
        this.recording = false;
        this.pending = false;
    }

    /** The call handed out when a call is not recorded: only its exit (the depth) counts. */
    static Call dropped(ThreadState owner) {
        return new Call(owner);
    }

    boolean recording() {
        return recording;
    }

    ThreadState owner() {
        return owner;
    }

    TraceSettings settings() {
        return settings;
    }

    void arg(int index, Object value) {
        if (index >= args.length) {
            Object[] bigger = new Object[index + 1];
            System.arraycopy(args, 0, bigger, 0, args.length);
            args = bigger;
        }
        args[index] = value;
    }

    void end(byte how, Object value) {
        owner.depth--;
        if (!recording) return;
        result = value;
        ownNanos = owner.ownNanos - ownNanosAtStart;
        endNanos = System.nanoTime();
        if (openSite >= 0) leaveSite(endNanos);  // the callee threw, and so does this call (or it caught it and returned without another call)
        outcome = how;  // volatile: publishes the rest
        if (pending) Probe.keepAtEnd(this);
    }

    /** The instrumented method's slot. */
    public int slot() { return slot; }

    public long threadId() { return owner.threadId; }

    public String threadName() { return owner.threadName; }

    public boolean virtualThread() { return owner.virtual; }

    /** Traced frames below this one on its thread when it started. */
    public int depth() { return depth; }

    /** {@link System#nanoTime()} at the call. */
    public long startNanos() { return startNanos; }

    /** {@link System#nanoTime()} at the exit; meaningful once {@link #outcome()} is not RUNNING. */
    public long endNanos() { return endNanos; }

    /**
     * The call's own time: from its start to its exit, less tiprobe's work on its thread meanwhile
     * (instrumenting a class the call loaded, capturing an argument); meaningful once ended.
     */
    public long durationNanos() { return Math.max(0, endNanos - startNanos - ownNanos); }

    public byte outcome() { return outcome; }

    /**
     * The arguments as captured: boxed primitives, strings (cut to the limit, see
     * {@link Captured.Text}), and {@link Captured} descriptions of the rest; null for null.
     */
    public Object[] args() {
        byte o = outcome;  // volatile read before the plain fields
        return o == RUNNING ? args.clone() : args;
    }

    /**
     * The stack of a call kept by its duration ({@link TraceSettings#minNanos()}), this method on
     * top, as the walker the agent set ({@link ProbeControl#keepCallerStacksWith}) took it at the
     * call's end; null for other calls and where the walk found none. A stack taken before the
     * walker was installed is named here, once, by the agent's namer; until there is one, and
     * where it cannot name it, it stays an {@link EarlyStack}.
     */
    public Object callerStack() {
        Object stack = callerStack;
        java.util.function.Function<EarlyStack, Object> namer = Probe.earlyStackNamer;
        if (stack instanceof EarlyStack early && namer != null) {
            try {
                stack = namer.apply(early);
            } catch (Throwable t) {
                stack = null;
            }
            callerStack = stack;
        }
        return stack;
    }

    void callerStack(Object stack) {
        callerStack = stack;
    }

    /** Names an early stack if the agent's namer can ({@link #callerStack()}), else forgets it. */
    void dropEarlyStack() {
        if (callerStack() instanceof EarlyStack) callerStack = null;
    }

    /** The body's call of site {@code site} begins; a site still open threw into a handler of this method. */
    void enterSite(int site) {
        long now = System.nanoTime();
        if (openSite >= 0) leaveSite(now);
        if (siteNanos == null || site >= siteNanos.length) {
            int length = Math.max(site + 1, siteNanos == null ? 4 : siteNanos.length * 2);
            siteNanos = siteNanos == null ? new long[length] : Arrays.copyOf(siteNanos, length);
            siteCalls = siteCalls == null ? new long[length] : Arrays.copyOf(siteCalls, length);
        }
        openSite = site;
        openSiteNanos = now;
        openSiteOwnNanos = owner.ownNanos;
    }

    /** The body's call of the open site returned. */
    void leaveSite() {
        if (openSite >= 0) leaveSite(System.nanoTime());
    }

    /** Leaves out tiprobe's work during the site, as the call's duration does, so that its sites never add up to more than the call. */
    private void leaveSite(long now) {
        siteNanos[openSite] += Math.max(0, now - openSiteNanos - (owner.ownNanos - openSiteOwnNanos));
        siteCalls[openSite]++;
        openSite = -1;
    }

    /**
     * Nanoseconds spent in each call site of the method's body during this call, by site index
     * (empty where the sites were not timed or none was reached), tiprobe's own work meanwhile
     * left out as {@link #durationNanos()} leaves it out; read once the call ended.
     */
    public long[] siteNanos() {
        byte o = outcome;  // volatile read before the plain fields
        return o == RUNNING || siteNanos == null ? new long[0] : siteNanos;
    }

    /** How many times each call site ran during this call, as {@link #siteNanos()}. */
    public long[] siteCalls() {
        byte o = outcome;
        return o == RUNNING || siteCalls == null ? new long[0] : siteCalls;
    }

    /** The return value as captured (null for void), or a {@link Captured.Thrown} when it threw. */
    public Object result() {
        byte o = outcome;
        return o == RUNNING ? null : result;
    }
}
