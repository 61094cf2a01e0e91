package dev.tiprobe.agent.sampling;

import dev.tiprobe.agent.classchange.RunningLoops;
import dev.tiprobe.agent.registry.Registry;
import dev.tiprobe.ids.IdMap;
import dev.tiprobe.ids.MethodToken;
import dev.tiprobe.jvmti.Jvmti;
import dev.tiprobe.recording.Stack;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.IntPredicate;

/**
 * Has HotSpot compile the hottest code again when the JVM ran a while before the session (unless
 * the user says {@code --no-recompile}): code compiled before then records only safepoint debug
 * information, so a sample in it names the method holding the nearest safepoint poll (a loop)
 * instead of the methods inlined into it ({@link InlinedFrames}).
 *
 * <p>Retransforming a class, bytes unchanged, makes HotSpot drop the compiled code that depends on
 * it (its own methods', and every method that inlined one of them) and compile it again, now with
 * the CompiledMethodLoad event on, so with every instruction's inlined method. But an activation of
 * the retransformed class's methods running at that moment goes on in the old version of its
 * method, interpreted, which HotSpot never compiles again: retransforming the class of a loop that
 * never returns (a main loop, an event loop) would leave that loop interpreted for good (measured:
 * a 1 : 2 : 4 kernel's loop then took 57 % of the CPU in the interpreter). So:
 *
 * <ul>
 *   <li>it counts the method on top of the first {@link #SAMPLES} samples of running threads,
 *       JFR's or those of the walks that stand in for JFR's until they come, and more until
 *       {@link #JFR_SAMPLES} of them are JFR's: in old code, the
 *       method holding the safepoint poll (a loop, or a method's return), as the methods inlined
 *       into it show none;</li>
 *   <li>the candidates are those methods' classes; then the classes of the methods just below
 *       the top of the samples ({@link #NEAR_TOP} frames), those in {@link #NEAR_SHARE} of them or
 *       more: the callers whose compiled code inlined the hot work (in old code a sample credits
 *       a caller's own work to whichever inlined method's safepoint is nearest, so the callers'
 *       code must be compiled again too); then the classes whose methods the hot methods'
 *       bytecode calls ({@link Callees}): what the JIT may have inlined into them; never one
 *       that a session in this JVM had compiled again already ({@link #RECOMPILED});</li>
 *   <li>a candidate is left alone when a loop of one of its methods runs throughout: walks of
 *       every platform thread over {@link RunningLoops#PERSISTS_MILLIS} and more find it with the
 *       same frames below it, down to the thread's first, standing where a jump back of its
 *       bytecodes goes round ({@link RunningLoops#every}); no counted sample of its thread found
 *       the thread outside it after one found it inside (a method called again and again from the
 *       same place, as a query's loop over its rows, looks to the walks as one activation would,
 *       but returns between the samples; a stack cut at the depth limit says nothing, its root
 *       frames lost, and a method that returned once and then entered a loop for good within the
 *       samples is taken for one that returns); and either it is on top of {@link #SELF_SHARE} of
 *       the counted samples or more (its own code, or code inlined into it, runs), or it only
 *       calls and JFR's samples found it running compiled code, or never found it (a walk's
 *       sample cannot tell). Stranded, such a compiled loop would go round interpreted for
 *       good, which costs a program as often as it calls: 8 % of a worker calling a 3 µs
 *       method. A loop that calls so seldom that the JIT has not compiled it (a loop calling a
 *       method of a millisecond, for seconds) already runs interpreted, and does not keep its
 *       class; nor does a loop too idle to cost, stranded (neither running its own code in
 *       {@link RunningLoops#MIN_OWN_SHARE} of its thread's walks nor its thread at
 *       {@link RunningLoops#MIN_CPU_SHARE} of a core). A {@code main} that called the program's
 *       loop once stands outside any loop of its own. Those walks do not see virtual threads, so
 *       a class with a method near the top of a virtual thread's sample keeps as compiled too,
 *       and a thread too deep to walk whole, with a candidate's method in the frames walked,
 *       keeps every candidate so;</li>
 *   <li>the JDK's classes (boot and platform loaders) and tiprobe's are never candidates:
 *       retransforming {@code java.util.HashMap} would throw away every compiled method in the
 *       JVM that inlined one of its methods (measured on H2: the dip in throughput and the JIT's
 *       work grew by half), while the application's callers, candidates themselves, bring the hot
 *       JDK methods they inlined back compiled;</li>
 *   <li>the others are retransformed, at most {@link #MOST_CLASSES}: code depending on them is
 *       dropped and compiled again; a running loop of a class left alone is compiled again by
 *       on-stack replacement when a class it inlined was retransformed, its own method untouched.</li>
 * </ul>
 *
 * A never-returning compiled loop whose hot work is all of its own class therefore stays as
 * compiled, and the report says so. The cost is the recompilation, a burst of JIT work, the walks'
 * safepoints and one for the retransformation; a loop entered after the first walk, and still
 * running when its class is retransformed a moment later, would finish interpreted.
 */
final class Recompiler {
    /** Samples counted before choosing: two seconds of a busy thread at 10 ms. */
    static final int SAMPLES = 200;
    /**
     * JFR's samples among them, when JFR samples the session: only they tell a loop that runs
     * compiled code from one that is interpreted, and they come a second or two after the walks
     * that stand in for them; but no more than {@link #MOST_SAMPLES} in all are waited for.
     */
    static final int JFR_SAMPLES = 50;
    static final int MOST_SAMPLES = 3 * SAMPLES;
    /** Classes retransformed at most. */
    static final int MOST_CLASSES = 24;
    /** The share of the samples on top that makes a method running throughout one with time of its own. */
    static final double SELF_SHARE = 0.01;
    /** The hot methods are those on top of this share of the samples, the hottest first (at most {@link #MOST_CLASSES}). */
    static final double SHARE = 0.8;
    /** Frames below the top of a sample whose methods' classes may be candidates. */
    static final int NEAR_TOP = 6;
    /** The share of the samples a method near the top must be in for its class to be a candidate. */
    static final double NEAR_SHARE = 0.05;
    /**
     * The classes a session in this JVM had compiled again, and that went on naming inlined methods
     * for {@link #SETTLED_NANOS} after (by identity, held weakly, shared by every session: the
     * agent's classes are loaded once a JVM): never retransformed again. HotSpot compiled their hot
     * code again within that time, naming its inlined methods, and a later session finds it so
     * unless HotSpot has compiled it again since. Retransforming the same classes at every session
     * costs the program more each time: HotSpot merges each one's constant pools again, and keeps
     * more of its metadata (docs/sampling.md).
     */
    private static final Set<Class<?>> RECOMPILED = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));
    /** How long a session must go on naming inlined methods after its recompilation for its classes to join {@link #RECOMPILED}. */
    static final long SETTLED_NANOS = 10_000_000_000L;
    /** The classes this recompiler retransformed, and when (0: not yet): written before the time, read after it. */
    private List<Class<?>> retransformed = List.of();
    private volatile long retransformedAt;

    /**
     * What was done: the classes retransformed, those left as compiled, each with why, and those an
     * earlier session had compiled again ({@link #RECOMPILED}).
     */
    record Outcome(List<String> recompiled, List<String> left, List<String> earlier) {}

    private final Jvmti jvmti;
    private final Registry registry;
    private final Map<Integer, AtomicInteger> tops = new ConcurrentHashMap<>();
    /** Samples with the method among the {@link #NEAR_TOP} frames below the top. */
    private final Map<Integer, AtomicInteger> nearTops = new ConcurrentHashMap<>();
    /** Methods on top of a virtual thread's sample or near it: their loops are where the walks cannot look. */
    private final Set<Integer> inVirtualThreads = ConcurrentHashMap.newKeySet();
    private final AtomicInteger counted = new AtomicInteger();
    private final AtomicInteger countedFromJfr = new AtomicInteger();
    /**
     * Of each platform thread, the methods its counted samples found it in, those of them it was
     * later found outside, and those JFR's samples found running compiled code, or interpreted.
     */
    private final Map<Long, ThreadSamples> byThread = new ConcurrentHashMap<>();

    private record ThreadSamples(Set<Integer> entered, Set<Integer> returned, Set<Integer> compiled, Set<Integer> interpreted) {
        ThreadSamples() {
            this(new HashSet<>(), new HashSet<>(), new HashSet<>(), new HashSet<>());
        }
    }

    private volatile boolean done;
    /**
     * Whether the session is ending: a recompile then only costs the program (a framework's hot
     * classes compiled again take a server to half its speed for a second) and shows in no sample.
     */
    private final BooleanSupplier sessionEnding;

    Recompiler(Jvmti jvmti, Registry registry, BooleanSupplier sessionEnding) {
        this.jvmti = jvmti;
        this.registry = registry;
        this.sessionEnding = sessionEnding;
    }

    /**
     * Counts a sample's top method (on JFR's thread or the sampler's), until the classes were
     * chosen; of a platform thread ({@code threadId}), the methods on its stack too, and whether
     * each ran compiled code or was interpreted ({@code compiled} by frame index, JFR's; null for
     * a walk's sample, which cannot tell).
     */
    void saw(Stack stack, IntPredicate compiled, long threadId, boolean virtualThread) {
        if (done || stack.depth() == 0 || counted.get() >= MOST_SAMPLES) return;
        int[] frames = stack.frames();
        if (!virtualThread && !stack.truncated()) {  // a cut stack lost its root frames, where loops that never return sit
            ThreadSamples thread = byThread.computeIfAbsent(threadId, id -> new ThreadSamples());
            synchronized (thread) {  // a thread's samples come from JFR's thread or from the sampler's walks, one after the other
                Set<Integer> on = new HashSet<>();
                for (int i = 0; i < stack.depth(); i++) {
                    on.add(frames[i]);
                    if (compiled != null) (compiled.test(i) ? thread.compiled() : thread.interpreted()).add(frames[i]);
                }
                for (int method : thread.entered()) if (!on.contains(method)) thread.returned().add(method);
                thread.entered().addAll(on);
            }
        }
        tops.computeIfAbsent(frames[0], id -> new AtomicInteger()).incrementAndGet();
        for (int i = 1; i <= NEAR_TOP && i < stack.depth(); i++) {
            if (seenAbove(frames, i)) continue;
            nearTops.computeIfAbsent(frames[i], id -> new AtomicInteger()).incrementAndGet();
            if (virtualThread) inVirtualThreads.add(frames[i]);
        }
        if (virtualThread) inVirtualThreads.add(stack.frames()[0]);
        if (compiled != null) countedFromJfr.incrementAndGet();
        counted.incrementAndGet();
    }

    /** Whether the method at {@code i} is also at a frame between the top and it (recursion): a sample counts it once. */
    private static boolean seenAbove(int[] frames, int i) {
        for (int j = 1; j < i; j++) if (frames[j] == frames[i]) return true;
        return false;
    }

    /**
     * Once enough samples came ({@link #JFR_SAMPLES} of them JFR's when {@code fromJfr}, JFR
     * sampling the session), recompiles what it safely can (on the sampler's thread); null
     * before, after it ran, and where the session was ending first (before the walks for running
     * loops, or after them), which then recompiles nothing.
     */
    Outcome recompileWhenReady(boolean fromJfr) throws InterruptedException {
        int n = counted.get();
        if (done || n < SAMPLES || fromJfr && countedFromJfr.get() < JFR_SAMPLES && n < MOST_SAMPLES) return null;
        done = true;
        if (sessionEnding.getAsBoolean()) return null;
        Set<Class<?>> virtual = new HashSet<>();
        Set<Class<?>> candidates = candidates(hotMethods(), callers(), virtual);
        Set<MethodToken> selfTimed = selfTimed();
        tops.clear();
        nearTops.clear();
        List<String> left = new ArrayList<>();
        List<String> earlier = new ArrayList<>();
        for (Iterator<Class<?>> i = candidates.iterator(); i.hasNext(); ) {
            Class<?> c = i.next();
            if (RECOMPILED.contains(c)) {
                earlier.add(c.getName());
                i.remove();
            }
        }
        Map<Class<?>, List<RunningLoops.Loop>> running = RunningLoops.every(jvmti, candidates);
        if (sessionEnding.getAsBoolean()) return null;  // the walks take the better part of a second
        List<Class<?>> chosen = new ArrayList<>();
        int pastTheMost = 0;
        for (Class<?> c : candidates) {
            if (virtual.contains(c)) {
                left.add(c.getName() + " (hot in a virtual thread, where a running loop cannot be seen)");
            } else if (running.getOrDefault(c, List.of()).stream().anyMatch(loop -> keepsItsClass(loop, selfTimed))) {
                left.add(c.getName() + " (a loop of it ran throughout)");
            } else if (chosen.size() >= MOST_CLASSES) {
                pastTheMost++;
            } else {
                chosen.add(c);
            }
        }
        // One entry for them all: named one by one they were most of the report's first screen.
        if (pastTheMost > 0) {
            left.add(pastTheMost + (pastTheMost == 1 ? " less hot class" : " less hot classes") + " (tiprobe retransforms "
                    + MOST_CLASSES + " at most)");
        }
        byThread.clear();
        List<Class<?>> changed = new ArrayList<>();
        try {
            // All in one call: one safepoint and one sweep of the compiled code, where a call per
            // class took a safepoint of 20 to 30 ms each on H2 under load.
            jvmti.retransformClasses(chosen.toArray(Class<?>[]::new));
            changed.addAll(chosen);
        } catch (RuntimeException refused) {  // one class refused fails them all: each on its own, to name it
            for (Class<?> c : chosen) {
                try {
                    jvmti.retransformClasses(c);
                    changed.add(c);
                } catch (RuntimeException e) {
                    left.add(c.getName() + " (" + e.getMessage() + ")");
                }
            }
        }
        retransformed = List.copyOf(changed);
        retransformedAt = System.nanoTime();
        return new Outcome(changed.stream().map(Class::getName).toList(), left, earlier);
    }

    /**
     * The session stops naming inlined methods (its CompiledMethodLoad event ends): the classes
     * retransformed {@link #SETTLED_NANOS} or more before join {@link #RECOMPILED}. A shorter
     * session's are retransformed again by the next: HotSpot may not have compiled their code again
     * yet.
     */
    void namingEnds() {
        long at = retransformedAt;
        if (at != 0 && System.nanoTime() - at >= SETTLED_NANOS) RECOMPILED.addAll(retransformed);
    }

    /** A hot method, and whether a virtual thread ran it. */
    private record Hot(IdMap.MethodEntry method, boolean inVirtualThread) {}

    /** The methods on top of {@link #SELF_SHARE} of the counted samples or more. */
    private Set<MethodToken> selfTimed() {
        Set<MethodToken> out = new HashSet<>();
        tops.forEach((id, count) -> {
            MethodToken token = count.get() >= SELF_SHARE * counted.get() ? registry.map().methodToken(id) : null;
            if (token != null) out.add(token);
        });
        return out;
    }

    /**
     * Whether a running loop keeps its class as compiled: no sample found its thread outside it
     * after one found it inside, and it has time of its own in the samples, or JFR's samples
     * found it running compiled code, or never found it at all (the walks' samples cannot tell).
     * One not known (a thread too deep to walk) is taken to.
     */
    private boolean keepsItsClass(RunningLoops.Loop loop, Set<MethodToken> selfTimed) {
        IdMap.MethodEntry m = loop.methodId() == 0 ? null : registry.resolve(loop.methodId());
        if (m == null) return true;
        ThreadSamples thread = byThread.get(loop.threadId());
        if (thread == null) return true;  // none of its samples was whole, or it was not sampled: not known
        int id = m.tokenId();
        synchronized (thread) {
            if (thread.returned().contains(id)) return false;  // called again and again, not one activation
            return selfTimed.contains(m.token()) || thread.compiled().contains(id) || !thread.interpreted().contains(id);
        }
    }

    /** The live methods on top of {@link #SHARE} of the counted samples, hottest first. */
    private List<Hot> hotMethods() {
        List<Hot> hot = new ArrayList<>();
        int covered = 0;
        for (Map.Entry<Integer, AtomicInteger> e : mostFirst(tops)) {
            if (covered >= SHARE * counted.get() || hot.size() >= MOST_CLASSES) break;
            covered += e.getValue().get();
            IdMap.MethodEntry m = liveApplicationMethod(e.getKey());
            if (m != null) hot.add(new Hot(m, inVirtualThreads.contains(e.getKey())));
        }
        return hot;
    }

    /** The live application methods near the top of {@link #NEAR_SHARE} of the counted samples or more, the most frequent first, each with whether a virtual thread ran it. */
    private List<Hot> callers() {
        List<Hot> out = new ArrayList<>();
        for (Map.Entry<Integer, AtomicInteger> e : mostFirst(nearTops)) {
            if (e.getValue().get() < NEAR_SHARE * counted.get()) break;
            IdMap.MethodEntry m = liveApplicationMethod(e.getKey());
            if (m != null) out.add(new Hot(m, inVirtualThreads.contains(e.getKey())));
        }
        return out;
    }

    /** Methods by how many samples counted them, the most first. */
    private static List<Map.Entry<Integer, AtomicInteger>> mostFirst(Map<Integer, AtomicInteger> counts) {
        List<Map.Entry<Integer, AtomicInteger>> byCount = new ArrayList<>(counts.entrySet());
        byCount.sort(Comparator.comparingInt((Map.Entry<Integer, AtomicInteger> e) -> e.getValue().get()).reversed());
        return byCount;
    }

    /** The live method a sample's frame names, when it is the application's (not tiprobe's); null otherwise or once unloaded. */
    private IdMap.MethodEntry liveApplicationMethod(int id) {
        MethodToken token = registry.map().methodToken(id);
        if (token == null || Registry.frameOwner(token) != Registry.FrameOwner.APPLICATION) return null;
        List<IdMap.MethodEntry> live = registry.map().methodsFor(token);
        return live.isEmpty() ? null : live.getFirst();
    }

    /**
     * The hot methods' classes, the callers' classes, then the classes whose methods the hot
     * methods' bytecode calls, where they can be candidates ({@link #addIfCandidate}); the classes
     * of methods hot in virtual threads, or near the top of their samples, also go into {@code virtual}.
     */
    private Set<Class<?>> candidates(List<Hot> hot, List<Hot> callers, Set<Class<?>> virtual) {
        Set<Class<?>> owners = new LinkedHashSet<>();
        Set<Class<?>> classes = new LinkedHashSet<>();
        for (Hot caller : callers) {
            try {
                Class<?> owner = jvmti.methodDeclaringClass(caller.method().methodId());
                addIfCandidate(owner, classes);
                if (caller.inVirtualThread()) virtual.add(owner);
            } catch (RuntimeException e) {
                // unloaded meanwhile
            }
        }
        for (Hot h : hot) {
            IdMap.MethodEntry m = h.method();
            try {
                Class<?> owner = jvmti.methodDeclaringClass(m.methodId());
                addIfCandidate(owner, owners);
                if (h.inVirtualThread()) virtual.add(owner);
                Jvmti.ConstantPool pool = jvmti.constantPool(owner);
                Set<String> callees = Callees.of(jvmti.bytecodes(m.methodId()), pool.count(), pool.bytes());
                if (callees.isEmpty()) continue;
                for (Class<?> c : jvmti.classLoaderClasses(owner.getClassLoader())) {
                    if (callees.contains(c.getName())) addIfCandidate(c, classes);
                }
            } catch (RuntimeException e) {
                // unloaded meanwhile, native, or bytes not as the format says: that method's callees are skipped
            }
        }
        owners.addAll(classes);
        return owners;
    }

    /**
     * Adds {@code c} when it may be retransformed: the application's (not the JDK's, of the boot
     * and platform loaders, nor tiprobe's), prepared (it has methods to have been inlined), and
     * modifiable.
     */
    private void addIfCandidate(Class<?> c, Set<Class<?>> into) {
        ClassLoader loader = c == null ? null : c.getClassLoader();
        if (loader != null && loader != ClassLoader.getPlatformClassLoader() && !c.isHidden() && !Registry.tiprobes(c.getName())
                && jvmti.classStatus(c).prepared() && jvmti.isModifiableClass(c)) {
            into.add(c);
        }
    }
}
