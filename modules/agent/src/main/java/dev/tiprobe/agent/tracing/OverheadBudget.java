package dev.tiprobe.agent.tracing;

import dev.tiprobe.options.AgentOptions.TraceMode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Keeps what the probes add under a share of the CPU the program itself uses, by choosing the
 * methods whose probes to take out: the hottest first, since every call of a method costs its probe
 * the same. Pure arithmetic over what it is shown; the tracing session looks (every half second),
 * and takes the chosen probes out.
 *
 * <p>The probes' cost is estimated as calls per second times what one probe call costs in the
 * mode: three times what EnterPathBench measured on a 2-core x86-64 machine (count 3 ns, time 100 ns
 * with its two clock reads, trace 20 ns for the calls the limits do not record), because in real
 * code a probe also keeps small methods from being inlined: on H2 under load the benchmark's
 * figures left the program 20 % slower at a 5 % budget. The program's own CPU is
 * the process's CPU less that estimate. Nothing is removed for a short burst (the excess must hold
 * for two looks in a row) or while the probes cost less than 2 % of one core, which cannot swamp
 * any program.
 *
 * <p>Taking probes out means retransforming their classes, and every retransform throws away the
 * compiled code that inlined them: a few decisive rounds cost less than many small ones. So a round
 * removes down to half the budget (the program speeds up afterwards, and the remaining methods'
 * rates rise with it), and the next round waits until four looks later, once the JIT has settled.
 * While a session is still instrumenting the classes loaded before it, and at the first look after
 * (0.2 s after), neither rule applies ({@link #lookWhileInstrumenting}): the hottest probes must
 * come out as soon as they show, before the JIT has compiled the program again with them.
 */
final class OverheadBudget {
    /** Below this many nanoseconds of probe time per second, nothing is removed. */
    static final long FLOOR_NANOS_PER_SECOND = 20_000_000;

    /** What one probe call costs, in nanoseconds, by mode. */
    static long nanosPerCall(TraceMode mode) {
        return switch (mode) {
            case COUNT -> 10;
            case TIME -> 300;
            case TRACE -> 60;
        };
    }

    private final double share;
    private final long nanosPerCall;
    private long[] lastCalls = new long[0];
    private long lastNanos = -1;
    private long lastCpuNanos;
    private boolean overLastTime;
    private int quietLooks;
    /** Slots whose probes cannot come out (their class runs a loop): neither counted nor chosen. */
    private final java.util.BitSet ignored = new java.util.BitSet();

    /** @param share the most the probes may add, as a share of the program's own CPU (0.05: 5 %) */
    OverheadBudget(double share, long nanosPerCall) {
        if (!(share > 0)) throw new IllegalArgumentException("the overhead budget must be positive: " + share);
        this.share = share;
        this.nanosPerCall = nanosPerCall;
    }

    double share() {
        return share;
    }

    /** From now on, {@code slot}'s probe is neither counted against the budget nor chosen: it cannot come out. */
    synchronized void ignore(int slot) {
        ignored.set(slot);
    }

    /** {@code slot} was given back (its class unloaded): the method it is handed to next is judged anew. */
    synchronized void forget(int slot) {
        ignored.clear(slot);
    }

    /** A method whose probe is to come out, and its call rate when it was chosen. */
    record Removal(int slot, long callsPerSecond) {}

    /**
     * One look: {@code calls} by slot so far, the process's CPU time so far, both at
     * {@code nowNanos}. Returns the slots to remove now, hottest first (none at the first look).
     * Slots already removed must show a rate of zero from then on (their counts stop).
     */
    List<Removal> look(long nowNanos, long[] calls, long processCpuNanos) {
        return look(nowNanos, calls, processCpuNanos, false);
    }

    /**
     * A look while the session is still instrumenting the loaded classes: each batch brings new
     * probes and throws compiled code away, so there is neither a burst to wait out nor a JIT to
     * let settle, and one look over the budget is enough for a round.
     */
    List<Removal> lookWhileInstrumenting(long nowNanos, long[] calls, long processCpuNanos) {
        return look(nowNanos, calls, processCpuNanos, true);
    }

    private synchronized List<Removal> look(long nowNanos, long[] calls, long processCpuNanos, boolean instrumenting) {
        List<Removal> out = List.of();
        if (lastNanos >= 0 && nowNanos > lastNanos) {
            double seconds = (nowNanos - lastNanos) / 1e9;
            long[] rates = new long[calls.length];
            long totalRate = 0;
            for (int slot = 0; slot < calls.length; slot++) {
                long before = slot < lastCalls.length ? lastCalls[slot] : 0;
                rates[slot] = ignored.get(slot) ? 0 : Math.max(0, (long) ((calls[slot] - before) / seconds));
                totalRate += rates[slot];
            }
            double probeNanosPerSecond = (double) totalRate * nanosPerCall;
            double cpuNanosPerSecond = (processCpuNanos - lastCpuNanos) / seconds;
            double allowed = Math.max(FLOOR_NANOS_PER_SECOND, share * Math.max(0, cpuNanosPerSecond - probeNanosPerSecond));
            boolean over = probeNanosPerSecond > allowed;
            if (instrumenting) {
                if (over) out = hottestUntilUnder(rates, probeNanosPerSecond, allowed / 2);
            } else if (quietLooks > 0) {
                quietLooks--;
                over = false;
            } else if (over && overLastTime) {
                out = hottestUntilUnder(rates, probeNanosPerSecond, allowed / 2);
                quietLooks = 4;
            }
            overLastTime = over && out.isEmpty();
        }
        rebase(nowNanos, calls, processCpuNanos);
        return out;
    }

    /**
     * Starts the next look's rates here, once a round's probes are out: the calls they made
     * while their classes were being retransformed would otherwise count against them again.
     */
    synchronized void rebase(long nowNanos, long[] calls, long processCpuNanos) {
        lastNanos = nowNanos;
        lastCalls = Arrays.copyOf(calls, calls.length);
        lastCpuNanos = processCpuNanos;
    }

    private List<Removal> hottestUntilUnder(long[] rates, double probeNanosPerSecond, double allowed) {
        Integer[] slots = new Integer[rates.length];
        for (int i = 0; i < slots.length; i++) slots[i] = i;
        Arrays.sort(slots, Comparator.comparingLong((Integer s) -> rates[s]).reversed());
        List<Removal> out = new ArrayList<>();
        double left = probeNanosPerSecond;
        for (int slot : slots) {
            if (left <= allowed || rates[slot] == 0) break;
            out.add(new Removal(slot, rates[slot]));
            left -= (double) rates[slot] * nanosPerCall;
        }
        return out;
    }
}
