package dev.tiprobe.agent.classchange;

import dev.tiprobe.jvmti.Jvmti;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Finds the loops a class change would strand. HotSpot leaves an activation that is running when
 * its class is retransformed in the old version of its method, interpreted, and never compiles it
 * again (on-stack replacement included): a loop that never returns (a main loop, a worker's
 * {@code run}, an event loop) would run its own code 10 to 50 times slower for the rest of the
 * JVM's life, long after the session that changed its class has ended. That costs the program
 * in proportion to how often the loop goes round: nothing visible when each turn calls a method
 * that works for a millisecond, 8 % of a worker whose turn calls a 3 µs method (measured on a
 * Jackson round trip), and many times over when the loop's own code is the work. The walks
 * cannot tell how long the calls take, so every such loop counts. Activations that return soon
 * are harmless: their next call runs the new version, compiled as usual.
 *
 * <p>An activation runs throughout when a first walk of every platform thread, a walk
 * {@link #PERSISTS_MILLIS} later and each of the {@link #THROUGHOUT_LOOKS} walks from then on
 * find its method with the same frames below it, down to the thread's first: a running activation
 * cannot change the frames below it, so a loop that runs on is found. It is a loop when, in each
 * of those walks, it stands at a place that a jump back in its bytecodes goes round
 * ({@link Bytecodes#loopsAround}): on top, running its own code, or waiting for a callee it will
 * call again. A {@code main} that called a method once, to wait for a server or to run the
 * program, stands outside any loop: stranded, it runs the rest of its code once, interpreted, at
 * no cost. A method called again and again from the same place looks the same to the walks; the
 * more walks find it, the less likely that is: {@link #CONFIRM_LOOKS} more walks of the loops'
 * threads alone find such a thread outside it between the calls, and a caller that knows more
 * (the samples of its thread) tells them apart too. Last, a loop counts when it costs, stranded:
 * when those walks found its own code running (on top of its thread) in {@link #MIN_OWN_SHARE}
 * of them or more, since interpreted that code takes 10 to 50 times as long, or when its thread
 * used {@link #MIN_CPU_SHARE} of a core or more, since a loop that only calls pays some 100 ns
 * a turn for its own few bytecodes, which matters only where it goes round often. Neither holds
 * for a {@code main} that polls a file or prints a line a second, nor for a worker waiting for
 * work that does not come (which, busy later, finishes interpreted what work comes: a few walks
 * cannot see the future).
 *
 * <p>The walks do not see virtual threads (JVMTI's GetAllStackTraces lists platform threads), and
 * a thread too deep to walk whole ({@link #DEPTH} frames) is taken as running every class's loop
 * when the frames walked hold one of the classes' methods; one whose frames walked hold none is
 * not looked at, though a loop of theirs may run below them (taking it as running one would leave
 * every class unchanged while a deep recursion runs).
 */
public final class RunningLoops {
    private RunningLoops() {}

    /** How long after the first walk the next one looks. */
    public static final long PERSISTS_MILLIS = 300;
    /**
     * Walks after that, {@link #THROUGHOUT_GAP_MILLIS} apart, every one of which must find an
     * activation for it to run throughout: a short method called again and again from the same
     * place (a query's loop over its rows, 0.1 ms a query on H2) is found in one walk and the
     * next about as often as it is on the stack, and 300 ms apart on H2 under load often enough
     * to keep the hottest classes as compiled; in four walks, rarely.
     */
    static final int THROUGHOUT_LOOKS = 4;
    static final long THROUGHOUT_GAP_MILLIS = 100;
    /** Walks of each thread holding a loop found, after those, {@link #CONFIRM_GAP_MILLIS} apart. */
    static final int CONFIRM_LOOKS = 100;
    static final long CONFIRM_GAP_MILLIS = 2;
    /**
     * The share of a core a loop's thread must use over the walks for a loop that only calls to
     * count: stranded, it costs some 100 ns of interpreting a turn, a share of what its thread
     * spends (8 % where a turn is a 3 µs call, and so about 1 % of a core below this). A
     * {@code main} polling a file every 10 ms used 1.3 to 2.5 % of a core (the tests' target,
     * {@code example.known.Known}; more where a busy neighbour shares the core), a busy worker
     * all of one.
     */
    static final double MIN_CPU_SHARE = 0.10;
    /**
     * The share of its thread's {@link #CONFIRM_LOOKS} walks that must find a loop's own code
     * running for the loop to count whatever its thread's CPU: a batch crunched in the loop's own
     * body now and then would take 10 to 50 times as long. Own code running means the loop's
     * activation on top of a thread that runs Java code, not standing at a call: a thread blocked
     * entering a monitor, or in a native method, shows its frame on top, and one stopped for the
     * walk as a compiled callee returns shows its caller on top at the call.
     */
    static final double MIN_OWN_SHARE = 0.05;
    /** Frames walked to compare activations from the bottom of each thread. */
    private static final int DEPTH = 2048;

    /** A running activation of one of {@code owner}'s methods (its jmethodID; 0: not known), in {@code thread} ({@code threadId}). */
    public record Loop(Class<?> owner, long methodId, String method, String thread, long threadId) {
        /** {@code Loop.main (thread main)}. */
        @Override
        public String toString() {
            return owner.getSimpleName() + "." + method + " (thread " + thread + ")";
        }
    }

    /**
     * Those of {@code classes} with a loop that runs throughout, each with the first found.
     * Returns at once when no thread has a frame of theirs. Takes a safepoint per walk; sleeps
     * between the walks on the calling thread.
     *
     * @throws InterruptedException when the calling thread is interrupted between the walks
     */
    public static Map<Class<?>, Loop> in(Jvmti jvmti, Collection<Class<?>> classes) throws InterruptedException {
        Map<Class<?>, Loop> first = new LinkedHashMap<>();
        every(jvmti, classes).forEach((owner, loops) -> first.put(owner, loops.getFirst()));
        return first;
    }

    /**
     * Every loop of {@code classes}' methods that runs throughout, by class: for a caller to weigh
     * each by what else it knows of it (whether its thread was sampled outside it, say). A thread
     * too deep to walk whole, with one of their methods in the frames walked, gives every class a
     * loop of method id 0. The same walks as {@link #in}.
     */
    public static Map<Class<?>, List<Loop>> every(Jvmti jvmti, Collection<Class<?>> classes) throws InterruptedException {
        Map<Long, Class<?>> owners = new HashMap<>();
        for (Class<?> c : classes) {
            try {
                for (long id : jvmti.classMethods(c)) owners.put(id, c);
            } catch (RuntimeException unloaded) {
                // no methods to run
            }
        }
        Map<Class<?>, List<Loop>> running = new LinkedHashMap<>();
        if (owners.isEmpty()) return running;
        Map<Activation, Integer> foundIn = new HashMap<>();
        Map<Activation, Integer> depths = new HashMap<>();  // of the loops found, from the thread's bottom frame
        Map<Place, Boolean> inLoops = new HashMap<>();
        Map<Thread, List<Jvmti.StackFrame>> first = new HashMap<>();
        for (Jvmti.ThreadStack ts : jvmti.allStackTraces(DEPTH, false)) {
            if (ts.frames().stream().anyMatch(f -> owners.containsKey(f.methodId()))) first.put(ts.thread(), ts.frames());
        }
        if (first.isEmpty()) return running;
        long since = System.nanoTime();
        Map<Thread, Long> cpuSince = new HashMap<>();
        for (Thread t : first.keySet()) cpuSince.put(t, cpuTime(jvmti, t));
        Thread.sleep(PERSISTS_MILLIS);
        for (int look = 0; look < THROUGHOUT_LOOKS; look++) {
            if (look > 0) Thread.sleep(THROUGHOUT_GAP_MILLIS);
            Set<Activation> seenThisLook = new HashSet<>();
            for (Jvmti.ThreadStack ts : jvmti.allStackTraces(DEPTH, false)) {
                List<Jvmti.StackFrame> was = first.get(ts.thread());
                if (was == null) continue;
                List<Jvmti.StackFrame> now = ts.frames();
                if (was.size() >= DEPTH || now.size() >= DEPTH) {  // cut: a loop below the frames walked cannot be seen
                    for (Class<?> c : classes) running.computeIfAbsent(c, k -> new ArrayList<>()).add(new Loop(c, 0, "?", ts.thread().getName(), ts.thread().threadId()));
                    return running;
                }
                int common = common(was, now);
                for (int fromBottom = 0; fromBottom < common; fromBottom++) {
                    Jvmti.StackFrame frame = now.get(now.size() - 1 - fromBottom);
                    Class<?> owner = owners.get(frame.methodId());
                    if (owner == null || !inLoops.computeIfAbsent(new Place(frame.methodId(), frame.location()), p -> loopsAround(jvmti, p))) continue;
                    Activation at = new Activation(frame.methodId(), ts.thread().threadId());  // not by the thread's name, which may change
                    if (seenThisLook.add(at) && foundIn.merge(at, 1, Integer::sum) == THROUGHOUT_LOOKS) {
                        depths.put(at, fromBottom);
                        running.computeIfAbsent(owner, k -> new ArrayList<>())
                                .add(new Loop(owner, frame.methodId(), methodName(jvmti, frame.methodId()), ts.thread().getName(), ts.thread().threadId()));
                    }
                }
            }
        }
        Map<Activation, Integer> onTop = confirm(jvmti, first, running, depths);
        double seconds = (System.nanoTime() - since) / 1e9;
        for (Thread t : first.keySet()) {
            long used = cpuTime(jvmti, t) - cpuSince.get(t);
            if (used >= MIN_CPU_SHARE * seconds * 1e9) continue;
            drop(running, loop -> loop.threadId() == t.threadId()
                    && onTop.getOrDefault(new Activation(loop.methodId(), loop.threadId()), 0) < MIN_OWN_SHARE * CONFIRM_LOOKS);
        }
        return running;
    }

    /** A method's activation in a thread, by ids. */
    private record Activation(long methodId, long threadId) {}

    /** Removes the loops {@code which} says, and the classes left without one. */
    private static void drop(Map<Class<?>, List<Loop>> running, Predicate<Loop> which) {
        for (Iterator<List<Loop>> i = running.values().iterator(); i.hasNext(); ) {
            List<Loop> loops = i.next();
            loops.removeIf(loop -> loop.methodId() != 0 && which.test(loop));
            if (loops.isEmpty()) i.remove();
        }
    }

    /** The thread's CPU time; one that has ended has none to add. */
    private static long cpuTime(Jvmti jvmti, Thread thread) {
        try {
            return jvmti.threadCpuTime(thread);
        } catch (RuntimeException ended) {
            return 0;
        }
    }

    /**
     * Drops the loops that a thread is found outside of in {@link #CONFIRM_LOOKS} walks of their
     * threads alone, {@link #CONFIRM_GAP_MILLIS} apart: a method called again and again from the
     * same place, on the stack most of the time (H2's {@code Command.executeQuery}, a retry loop
     * round each statement), can be in every walk above; a loop that runs on is in every one.
     * Returns, for each loop's activation, how many of those walks found it running its own code
     * ({@link #MIN_OWN_SHARE}): on top, at its depth, of a thread running Java code, not at a call.
     */
    private static Map<Activation, Integer> confirm(Jvmti jvmti, Map<Thread, List<Jvmti.StackFrame>> first, Map<Class<?>, List<Loop>> running,
                                                    Map<Activation, Integer> depths) throws InterruptedException {
        Map<Activation, Integer> onTop = new HashMap<>();
        Map<Long, Thread> threads = new LinkedHashMap<>();
        for (Thread t : first.keySet()) {
            for (List<Loop> loops : running.values()) {
                for (Loop loop : loops) if (loop.threadId() == t.threadId() && loop.methodId() != 0) threads.put(t.threadId(), t);
            }
        }
        if (threads.isEmpty()) return onTop;
        for (int look = 0; look < CONFIRM_LOOKS && !running.isEmpty(); look++) {
            Thread.sleep(CONFIRM_GAP_MILLIS);
            for (Thread t : threads.values()) {  // one thread a walk: a handshake with it alone, where several take a safepoint
                Jvmti.ThreadStack ts = jvmti.threadStack(t, DEPTH);
                List<Jvmti.StackFrame> now = ts == null ? List.of() : ts.frames();  // none: the thread has ended
                if (now.size() >= DEPTH) continue;
                int common = common(first.get(t), now);
                Set<Long> on = new HashSet<>();
                for (int fromBottom = 0; fromBottom < common; fromBottom++) on.add(now.get(now.size() - 1 - fromBottom).methodId());
                drop(running, loop -> loop.threadId() == t.threadId() && !on.contains(loop.methodId()));
                if (common == now.size() && common > 0 && runsJavaCode(ts.state())) {
                    Jvmti.StackFrame top = now.getFirst();
                    Activation at = new Activation(top.methodId(), t.threadId());
                    Integer depth = depths.get(at);
                    if (depth != null && depth == now.size() - 1 && !callsAt(jvmti, top)) onTop.merge(at, 1, Integer::sum);
                }
            }
        }
        return onTop;
    }

    /** Whether a thread in {@code state} (JVMTI's bits) runs Java code: runnable, and not in a native method or blocked in one. */
    private static boolean runsJavaCode(int state) {
        return (state & Jvmti.THREAD_STATE_RUNNABLE) != 0 && (state & Jvmti.THREAD_STATE_IN_NATIVE) == 0;
    }

    /** Whether {@code frame} stands at a call, or in a native method; one whose bytecodes cannot be read is taken to. */
    private static boolean callsAt(Jvmti jvmti, Jvmti.StackFrame frame) {
        if (frame.location() < 0) return true;
        try {
            return Bytecodes.callsAt(jvmti.bytecodes(frame.methodId()), frame.location());
        } catch (RuntimeException unreadable) {
            return true;
        }
    }

    /**
     * How many frames, from the bottom, of two walks of a thread are the same activations: the
     * same methods, standing at the same places, but the last of them, which may have moved.
     */
    private static int common(List<Jvmti.StackFrame> was, List<Jvmti.StackFrame> now) {
        int common = 0;
        for (; common < Math.min(was.size(), now.size()); common++) {
            Jvmti.StackFrame a = was.get(was.size() - 1 - common);
            Jvmti.StackFrame b = now.get(now.size() - 1 - common);
            if (a.methodId() != b.methodId()) break;
            if (a.location() != b.location()) return common + 1;  // the frames above it are not the same activations
        }
        return common;
    }

    /** Where an activation stands: its method and bytecode index. */
    private record Place(long methodId, long location) {}

    /** Whether a jump back of the method goes round the place; a native method, or one whose bytecodes cannot be read, is taken to loop. */
    private static boolean loopsAround(Jvmti jvmti, Place place) {
        try {
            return Bytecodes.loopsAround(jvmti.bytecodes(place.methodId()), place.location());
        } catch (RuntimeException unreadable) {
            return true;
        }
    }

    private static String methodName(Jvmti jvmti, long methodId) {
        try {
            return jvmti.methodName(methodId).name();
        } catch (RuntimeException unloaded) {
            return "?";
        }
    }
}
