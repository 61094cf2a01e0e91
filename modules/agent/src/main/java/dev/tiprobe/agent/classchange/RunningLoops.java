package dev.tiprobe.agent.classchange;

import dev.tiprobe.jvmti.Jvmti;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the loops a class change would strand. HotSpot leaves an activation that is running when
 * its class is retransformed in the old version of its method, interpreted, and never compiles it
 * again (on-stack replacement included): a loop that never returns (a main loop, a worker's
 * {@code run}, an event loop) would run 10 to 50 times slower for the rest of the JVM's life, long
 * after the session that changed its class has ended. Activations that return soon are harmless:
 * their next call runs the new version, compiled as usual.
 *
 * <p>An activation runs throughout when a first walk of every platform thread, a walk
 * {@link #PERSISTS_MILLIS} later and each of the {@link #THROUGHOUT_LOOKS} walks from then on find
 * its method with the same frames below it, down to the thread's first: a running activation
 * cannot change the frames below it, so a loop that runs on is found. A method called again and
 * again from the same place looks the same to the walks; the more walks find it, the less likely
 * that is, and a caller that knows more (the samples of its thread) tells them apart. It is a hot loop when, in {@link #ON_TOP} or more of {@link #LOOKS} walks after that, it
 * is on top of its thread's stack while the thread runs Java code: the loop's own code runs, not
 * only its callees (a {@code main} that waits for a server, or calls a method that works for a
 * second, is stranded at no cost), and a short method met on top once, called again from the same
 * place, is not taken for one; nor is a method without a backward jump in its bytecodes
 * ({@link Bytecodes#hasBackwardBranch}), which returns as soon as its callees do. With
 * {@code hotOnly} false every activation that runs throughout counts.
 *
 * <p>The walks do not see virtual threads (JVMTI's GetAllStackTraces lists platform threads), and
 * a thread too deep to walk whole is taken as running every class's loop.
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
    /** With {@code hotOnly}: walks after that, {@link #LOOK_GAP_MILLIS} apart, looking for the activation on top. */
    static final int LOOKS = 5;
    /** Walks of the {@link #LOOKS} that must find a hot loop on top. */
    static final int ON_TOP = 2;
    static final long LOOK_GAP_MILLIS = 10;
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
     * Those of {@code classes} with an activation that runs throughout (with {@code hotOnly}, a hot
     * loop), each with the first such activation found. Returns at once when no thread has a frame
     * of theirs. Takes a safepoint per walk; sleeps between the walks on the calling thread.
     *
     * @throws InterruptedException when the calling thread is interrupted between the walks
     */
    public static Map<Class<?>, Loop> in(Jvmti jvmti, Collection<Class<?>> classes, boolean hotOnly) throws InterruptedException {
        Map<Class<?>, Loop> first = new LinkedHashMap<>();
        find(jvmti, classes, hotOnly).forEach((owner, loops) -> first.put(owner, loops.getFirst()));
        return first;
    }

    /**
     * Every activation of {@code classes}' methods that runs throughout, hot or not, by class: for
     * a caller to weigh each by what else it knows of it (its self time in samples, say). A thread
     * too deep to walk whole gives every class a loop of method id 0. The same walks as {@link #in}.
     */
    public static Map<Class<?>, List<Loop>> throughout(Jvmti jvmti, Collection<Class<?>> classes) throws InterruptedException {
        return find(jvmti, classes, false);
    }

    private static Map<Class<?>, List<Loop>> find(Jvmti jvmti, Collection<Class<?>> classes, boolean hotOnly) throws InterruptedException {
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
        Map<Loop, Integer> onTop = new HashMap<>();
        Map<Loop, Integer> foundIn = new HashMap<>();
        Map<Long, Boolean> loops = new HashMap<>();
        Map<Thread, List<Jvmti.StackFrame>> first = new HashMap<>();
        for (Jvmti.ThreadStack ts : jvmti.allStackTraces(DEPTH, false)) {
            if (ts.frames().stream().anyMatch(f -> owners.containsKey(f.methodId()))) first.put(ts.thread(), ts.frames());
        }
        if (first.isEmpty()) return running;
        Thread.sleep(PERSISTS_MILLIS);
        int looks = hotOnly ? LOOKS : THROUGHOUT_LOOKS;
        for (int look = 0; look < looks; look++) {
            if (look > 0) Thread.sleep(hotOnly ? LOOK_GAP_MILLIS : THROUGHOUT_GAP_MILLIS);
            Set<Loop> seenThisLook = new HashSet<>();
            for (Jvmti.ThreadStack ts : jvmti.allStackTraces(DEPTH, false)) {
                List<Jvmti.StackFrame> was = first.get(ts.thread());
                if (was == null) continue;
                List<Jvmti.StackFrame> now = ts.frames();
                if (was.size() >= DEPTH || now.size() >= DEPTH) {  // cut: a loop below the frames walked cannot be seen
                    for (Class<?> c : classes) running.computeIfAbsent(c, k -> new ArrayList<>()).add(new Loop(c, 0, "?", ts.thread().getName(), ts.thread().threadId()));
                    return running;
                }
                boolean inJava = (ts.state() & Jvmti.THREAD_STATE_RUNNABLE) != 0 && (ts.state() & Jvmti.THREAD_STATE_IN_NATIVE) == 0;
                int common = 0;
                for (; common < Math.min(was.size(), now.size()); common++) {
                    Jvmti.StackFrame a = was.get(was.size() - 1 - common);
                    Jvmti.StackFrame b = now.get(now.size() - 1 - common);
                    if (a.methodId() != b.methodId()) break;
                    if (a.location() != b.location()) {  // the frames above it are not the same activations
                        common++;
                        break;
                    }
                }
                for (int fromBottom = 0; fromBottom < common; fromBottom++) {
                    boolean top = fromBottom == now.size() - 1;
                    if (hotOnly && !(top && inJava)) continue;
                    long id = now.get(now.size() - 1 - fromBottom).methodId();
                    Class<?> owner = owners.get(id);
                    if (owner == null || hotOnly && !loops.computeIfAbsent(id, m -> loops(jvmti, m))) continue;
                    Loop loop = new Loop(owner, id, methodName(jvmti, id), ts.thread().getName(), ts.thread().threadId());
                    boolean runs = hotOnly ? onTop.merge(loop, 1, Integer::sum) == ON_TOP
                            : seenThisLook.add(loop) && foundIn.merge(loop, 1, Integer::sum) == looks;
                    if (runs) {
                        List<Loop> found = running.computeIfAbsent(owner, k -> new ArrayList<>());
                        if (!found.contains(loop)) found.add(loop);
                    }
                }
            }
        }
        return running;
    }

    /** Whether the method can loop by itself; a native method, or one whose bytecodes cannot be read, is taken to. */
    private static boolean loops(Jvmti jvmti, long methodId) {
        try {
            return Bytecodes.hasBackwardBranch(jvmti.bytecodes(methodId));
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
