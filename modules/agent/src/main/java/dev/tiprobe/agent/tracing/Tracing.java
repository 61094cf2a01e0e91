package dev.tiprobe.agent.tracing;

import dev.tiprobe.agent.classchange.RunningLoops;
import dev.tiprobe.agent.jvm.AgentThreads;
import dev.tiprobe.agent.jvm.ModuleAccess;
import dev.tiprobe.agent.sink.EpochClock;
import dev.tiprobe.filter.MethodFilter;
import dev.tiprobe.ids.IdMap;
import dev.tiprobe.jvmti.Capability;
import dev.tiprobe.jvmti.Event;
import dev.tiprobe.jvmti.Events;
import dev.tiprobe.jvmti.Jvmti;
import dev.tiprobe.jvmti.TimeStampCounter;
import dev.tiprobe.options.AgentOptions.TraceLimits;
import dev.tiprobe.options.AgentOptions.TraceMode;
import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.probe.Call;
import dev.tiprobe.probe.EarlyStack;
import dev.tiprobe.probe.Probe;
import dev.tiprobe.probe.ProbeControl;
import dev.tiprobe.probe.TraceSettings;
import dev.tiprobe.recording.Callee;
import dev.tiprobe.recording.Removed;
import dev.tiprobe.recording.Skipped;
import dev.tiprobe.recording.Stack;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Method tracing, in process: {@code Tracing.start(filter, mode)} instruments the chosen methods
 * of classes already loaded (RetransformClasses) and of classes loaded later (ClassFileLoadHook),
 * and {@link Session#stop()} puts every original class file back (but where that would strand a
 * running loop, {@link RunningLoops}) and returns what the probes saw.
 * One session at a time per JVM.
 *
 * <p>The probe classes go into the boot loader ({@link ProbeClasses}) from {@code tiprobe-probe.jar}
 * next to the agent jar (or the path in the system property {@code tiprobe.probe.jar}). Put the
 * agent jar on the class path, not the module path: its code must see the boot loader's probe.
 */
public final class Tracing {
    private Tracing() {}

    /** The probe's settings for trace mode (touched only once the probe classes are in the boot loader). */
    private static TraceSettings settings(TraceLimits limits, java.util.function.Predicate<Call> keep) {
        return new TraceSettings(true, limits.perSecond(), limits.everyNth(), limits.maxString(), limits.maxElements(),
                limits.callToString(), limits.maxDepth(), limits.maxFields(), limits.minNanos(), keep);
    }

    private static final Object LOCK = new Object();

    /**
     * Time mode's clock: the CPU's time-stamp counter where it is invariant and readable, else
     * null for {@code System.nanoTime()}; {@code -Dtiprobe.clock=nanotime} in the target asks for
     * the latter (to compare the two, as EnterPathBench does).
     */
    private static java.lang.invoke.MethodHandle chosenClock() {
        if ("nanotime".equalsIgnoreCase(System.getProperty("tiprobe.clock"))) return null;
        return TimeStampCounter.reader().orElse(null);
    }

    /** The clock time mode reads, and why it is not the counter where it is not. */
    private static String clock() {
        String clock = ProbeControl.clock();
        String why = TimeStampCounter.unavailableReason();
        if (ProbeControl.readsTimeStampCounter()) return clock;
        if ("nanotime".equalsIgnoreCase(System.getProperty("tiprobe.clock"))) return clock + " (asked for with -Dtiprobe.clock=nanotime)";
        return why == null ? clock : clock + " (no time-stamp counter: " + why + ")";
    }

    /**
     * Opens {@code c}'s package to the probe's module, so the probe can read the fields of an
     * object of {@code c}; the program's own access is unchanged. Called by the probe.
     */
    private static void openToProbe(Class<?> c) {
        ModuleAccess.openTo(c, Probe.class.getModule());
    }
    private static Session current;
    private static boolean probeInBootLoader;
    /**
     * The slots a session may hand out start here: an earlier session left probes in classes
     * that were running a loop when it stopped, and those probes still call their slots. Guarded by LOCK.
     */
    private static int retiredBelow;

    /** Whether the probe's classes are in the boot loader, so the agent may call them. */
    public static boolean probeInBootLoader() {
        synchronized (LOCK) {
            return probeInBootLoader;
        }
    }

    /**
     * Starts tracing now (in-process, or from agentmain), its methods' tokens in {@code names},
     * the session's one ID map.
     *
     * @throws IllegalStateException when a session is already running, or the probe jar is missing
     * @throws dev.tiprobe.jvmti.JvmtiException when JVMTI refuses (e.g. retransformation unavailable)
     */
    public static Session start(AgentOptions.Tracing options, IdMap names) {
        return start(options, names, false);
    }

    /**
     * Puts the probe's classes into the boot loader, once per JVM, before any class calls them:
     * what {@link #start} does first, and what must come before the agent hands the probe a
     * walker for kept calls' stacks.
     */
    public static void prepareProbe() {
        synchronized (LOCK) {
            if (!probeInBootLoader) defineProbe(Jvmti.get());
            probeInBootLoader = true;
        }
    }

    private static Session start(AgentOptions.Tracing options, IdMap names, boolean ownMap) {
        synchronized (LOCK) {
            checkIdle();
            Jvmti jvmti = Jvmti.get();
            jvmti.addCapabilities(Capability.CAN_RETRANSFORM_CLASSES);
            prepareProbe();
            current = new Session(options, null, names, ownMap);
            current.attach(jvmti);
            return current;
        }
    }

    /** Starts tracing with an ID map of its own: for a program that traces itself, with no recording. */
    public static Session start(String filter, TraceMode mode) {
        return start(AgentOptions.Tracing.of(filter, mode), new IdMap(), true);
    }

    /**
     * Starts tracing from premain, before JVMTI can be reached from Java: until then classes are
     * instrumented as they load through {@code inst}, the JDK's java.lang.instrument; once
     * {@code jvmti} completes, the session moves to JVMTI (ClassFileLoadHook, RetransformClasses)
     * and stops using {@code inst}.
     */
    public static Session startEarly(AgentOptions.Tracing options, IdMap names, Instrumentation inst,
                                     CompletableFuture<Jvmti> jvmti) throws IOException {
        synchronized (LOCK) {
            checkIdle();
            if (!probeInBootLoader) ProbeClasses.appendToBootPath(inst, existingProbeJar());
            probeInBootLoader = true;
            // The rest of the agent's start runs on main before the program does: not its calls.
            // AgentMain.premain unmarks the thread when it returns.
            ProbeControl.tiprobesWork(true);
            Session session = new Session(options, inst, names, false);
            session.prepare();
            current = session;
            ClassFileTransformer early = new ClassFileTransformer() {
                @Override
                public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain,
                                        byte[] classFile) {
                    if (session.jvmti != null) return null;
                    long began = System.nanoTime();
                    try {
                        return session.onClassFile(loader, name, redefined, domain, classFile);
                    } finally {
                        ProbeControl.ownWorkTook(System.nanoTime() - began);  // not the time of the traced calls that loaded the class
                    }
                }
            };
            inst.addTransformer(early, true);
            session.retransformLoaded();  // what loaded before premain (java.util.*, say)
            jvmti.thenAccept(j -> {
                try {
                    synchronized (LOCK) {
                        j.addCapabilities(Capability.CAN_RETRANSFORM_CLASSES);
                        session.attach(j);
                    }
                } catch (Throwable t) {
                    session.classFailures.add("JVMTI: " + t);
                } finally {
                    inst.removeTransformer(early);
                }
            });
            return session;
        }
    }

    private static void checkIdle() {
        if (current != null && current.running()) throw new IllegalStateException("a tracing session is already running");
    }

    /** The running session, or null. */
    public static Session current() {
        synchronized (LOCK) {
            return current != null && current.running() ? current : null;
        }
    }

    private static void defineProbe(Jvmti jvmti) {
        try {
            ProbeClasses.defineInBootLoader(jvmti, existingProbeJar());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the probe jar: " + e.getMessage(), e);
        }
    }

    private static Path existingProbeJar() {
        Path jar = probeJar();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("probe jar not found: " + jar + " (it ships next to the agent jar)");
        }
        return jar;
    }

    static Path probeJar() {
        String configured = System.getProperty("tiprobe.probe.jar");
        if (configured != null) return Path.of(configured);
        try {
            CodeSource source = Tracing.class.getProtectionDomain().getCodeSource();
            Path here = Path.of(source.getLocation().toURI());
            return here.resolveSibling("tiprobe-probe.jar");
        } catch (URISyntaxException | RuntimeException e) {
            throw new IllegalStateException("cannot locate the agent jar: " + e.getMessage(), e);
        }
    }

    /** A tracing session's figures for a look ({@link Session#tally}): its clock is null outside time mode. */
    public record Tally(TraceMode mode, String filter, long methods, long calls, String clock) {}

    /** One tracing session: instrumented classes, slots, and the results when it stops. */
    public static final class Session {
        /** Null until JVMTI is reached (premain); then the session works through it alone. */
        private volatile Jvmti jvmti;
        /** The start-up route (premain) until JVMTI is reached; null otherwise. */
        private final Instrumentation inst;
        private final AgentOptions.Tracing options;
        private final ProbeSlots slots;
        private final Instrumenter instrumenter;
        private final LoadedNames loadedNames = new LoadedNames(this::initiatedBy);
        private final long startEpochNanos;
        private final long startNanoTime;
        /** Classes this session changed: loader to internal names. Guarded by itself. */
        private final Map<ClassLoader, Set<String>> changed = new WeakHashMap<>();
        private final Set<String> changedByBoot = new HashSet<>();
        private final Reported<Skipped> skipped = new Reported<>();
        private final Reported<String> classFailures = new Reported<>();
        /** Set once the agent's memory passed its ceiling: classes that load from then on run as they are. */
        private volatile boolean newClassesRefused;
        private final AtomicLong classesInstrumented = new AtomicLong();
        /** Time in {@link #transformed} past its first test: what instrumenting costs class loading (the budget counts only probe calls). */
        private final java.util.concurrent.atomic.LongAdder instrumentingNanos = new java.util.concurrent.atomic.LongAdder();
        private final Reported<Removed> removed = new Reported<>(Results.REMOVED_BY_RATE);
        private volatile boolean active;
        private Events.Registration hook;
        private Results finalResults;
        private volatile Thread budgetWatcher;
        /** Methods whose classes unloaded and whose last figures were handed out, and their calls. Guarded by LOCK. */
        private long unloadedMethods;
        private long unloadedCalls;

        private Session(AgentOptions.Tracing options, Instrumentation inst, IdMap names, boolean ownMap) {
            this.inst = inst;
            this.options = options;
            this.slots = new ProbeSlots(names, ownMap, this::namedModule, retiredBelow);
            ProbeControl.traceFrom(retiredBelow);
            this.instrumenter = new Instrumenter(options.filter(), options.mode(), slots, loadedNames, options.tree());
            this.startEpochNanos = EpochClock.nanosNow();
            this.startNanoTime = System.nanoTime();
        }

        boolean running() {
            return active;
        }

        /** The most notes kept of a condition's paths that led nowhere: each is told once. */
        private static final int MAX_NOTES = 20;
        private final Set<String> conditionNotes = java.util.concurrent.ConcurrentHashMap.newKeySet();

        /** Whether a call that ended holds the session's condition ({@code where=}), on the thread that made it. */
        private boolean matches(Call c) {
            ProbeSlots.Method m = slots.method(c.slot());
            return m != null && options.where().test(new CallFacts(c, m.parameterNames()), note -> {
                if (conditionNotes.size() < MAX_NOTES) conditionNotes.add(m.humanName() + ": " + note);
            });
        }

        /** What the condition could not read so far (a field a class lacks, a parameter a method lacks), each once. */
        public List<String> conditionNotes() {
            return List.copyOf(new java.util.TreeSet<>(conditionNotes));
        }

        /** The classes {@code loader} has initiated: through JVMTI, or java.lang.instrument before it. */
        private Class<?>[] initiatedBy(ClassLoader loader) {
            Jvmti j = jvmti;
            if (j != null) return j.classLoaderClasses(loader);
            return inst != null ? inst.getInitiatedClasses(loader) : new Class<?>[0];
        }

        /** The named module of a package, or null: through JVMTI, or the boot layer before it. */
        private Module namedModule(ClassLoader loader, String internalPackage) {
            try {
                Jvmti j = jvmti;
                if (j != null) return j.namedModule(loader, internalPackage);
                String pkg = internalPackage.replace('/', '.');
                for (Module m : ModuleLayer.boot().modules()) {
                    if (m.getPackages().contains(pkg) && m.getClassLoader() == loader) return m;
                }
                return null;
            } catch (RuntimeException e) {
                return null;
            }
        }

        private void prepare() {
            TraceLimits limits = options.limits();
            boolean trace = options.mode() == TraceMode.TRACE;
            // Only trace mode keeps calls: the buffer of other modes would be 0.4 MB of the application's heap, never used.
            ProbeControl.reset(trace ? settings(limits, options.where() == null ? null : this::matches) : TraceSettings.OFF,
                    trace ? limits.maxCalls() : 0);
            ProbeControl.openFieldsWith(trace ? Tracing::openToProbe : null);
            if (options.mode() == TraceMode.TIME) ProbeControl.chooseClock(chosenClock());
            warmUp();
            active = true;
        }

        /**
         * From here on JVMTI does the work: the load hook, and the classes already loaded. The
         * start-up transformer stops only once the hook is in (registering it takes about 100 ms
         * in a fresh JVM, and a class loaded in between would run uninstrumented until the
         * retransform below reached it); for that moment both see each load, and the second
         * leaves a class the first changed alone ({@link Instrumenter#callsTheProbe}).
         */
        private void attach(Jvmti j) {
            if (!active) prepare();
            hook = j.events().on(Event.CLASS_FILE_LOAD_HOOK, new Event.ClassFileLoadHookHandler() {
                @Override
                public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain, byte[] classFile) {
                    return onClassFile(loader, name, redefined, domain, classFile);
                }

                @Override
                public void upcallTook(long nanos) {
                    ProbeControl.ownWorkTook(nanos);  // all of the upcall: not the time of the traced calls that loaded the class
                }
            });
            jvmti = j;  // the start-up transformer stops here
            if (options.overheadBudget() > 0) budget = new OverheadBudget(options.overheadBudget(), OverheadBudget.nanosPerCall(options.mode()));
            // Started with the JVM, the session saw every class load (premain retransformed those
            // before it, before main ran): changing a class again now would strand its running loops.
            if (inst == null) retransformLoaded();
            keepUnderBudget();
        }

        /** Keeps the probes' cost under the budget, or null when there is none. Looked at by one thread at a time. */
        private OverheadBudget budget;
        /** When the budget last looked (System.nanoTime has an arbitrary origin: one look's length before the session). */
        private long lastLookNanos = System.nanoTime() - LOOK_NANOS;
        /** How often the budget looks at the methods' call rates. */
        private static final long LOOK_NANOS = 500_000_000;
        /**
         * When the watcher first looks, after the loaded classes got their probes: soon, so that
         * the hottest probes come out while the program still runs the code that the
         * instrumenting threw away, before the JIT has compiled it again with them, which a
         * removal would throw away once more.
         */
        private static final long FIRST_LOOK_NANOS = 200_000_000;

        /**
         * Looks at the methods' call rates, if half a second has passed since the last look, and
         * takes the probes out of the hottest when they cost more than the budget
         * ({@link OverheadBudget}). Between the batches that instrument the loaded classes, when
         * there are more than one ({@link #BATCH}), so that the hottest of those done so far come
         * out before the rest are done; then from a daemon thread that ends with the session.
         */
        private void lookAtBudget(boolean instrumenting) {
            lookAtBudget(instrumenting, LOOK_NANOS * 9 / 10);
        }

        /** As {@link #lookAtBudget(boolean)}, if {@code sinceLastNanos} have passed since the last look. */
        private void lookAtBudget(boolean instrumenting, long sinceLastNanos) {
            long now = System.nanoTime();
            if (budget == null || now - lastLookNanos < sinceLastNanos) return;
            lastLookNanos = now;
            List<ProbeSlots.Method> looked = slots.methods();
            List<OverheadBudget.Removal> chosen = instrumenting ? budget.lookWhileInstrumenting(now, callsBySlot(), AgentThreads.processCpuNanos())
                    : budget.look(now, callsBySlot(), AgentThreads.processCpuNanos());
            if (chosen.isEmpty()) return;
            removeProbes(chosen, looked);
            budget.rebase(System.nanoTime(), callsBySlot(), AgentThreads.processCpuNanos());
        }

        private void keepUnderBudget() {
            if (budget == null) return;
            budgetWatcher = AgentThreads.daemon("tiprobe-budget").start(() -> {
                try {
                    Thread.sleep(FIRST_LOOK_NANOS / 1_000_000);
                    if (active) lookAtBudget(true, FIRST_LOOK_NANOS * 9 / 10);  // the probes just went in, as while instrumenting
                    while (active) {
                        Thread.sleep(LOOK_NANOS / 1_000_000);
                        lookAtBudget(false);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (Throwable t) {
                    classFailures.add("overhead budget: stopped watching: " + t);
                }
            });
        }

        /** Calls so far by slot: counted at entry, or at the exits in time mode. */
        private long[] callsBySlot() {
            int n = slots.size();
            long[] calls = options.mode() == TraceMode.TIME ? ProbeControl.timedCalls(n) : ProbeControl.counts(n);
            // Retired slots' probes, left in classes an earlier session could not restore, are no method of this one.
            Arrays.fill(calls, 0, Math.min(slots.firstSlot(), calls.length), 0);
            return calls;
        }

        /**
         * Retransforms the chosen methods' classes without their probes; their counts so far stay.
         * A probe turned off in place costs little a call, but the code it adds keeps a hot
         * method's callers from inlining what they did before: on H2 under load, 600 probes
         * turned off left the program at half its speed, against 0.9 with them taken out.
         * {@code looked}: the slots when the rates were read; a slot given to another method since
         * is left alone. A class running a loop is not changed ({@link #unstranded}), and one the
         * JVM refuses to change keeps the class file it had: their time and trace probes are
         * turned off where they are; count probes, which cost no more than that check, go on
         * counting, no longer counted by the budget.
         */
        private void removeProbes(List<OverheadBudget.Removal> chosen, List<ProbeSlots.Method> looked) {
            synchronized (LOCK) {
                if (!active) return;
                List<ProbeSlots.Method> methods = slots.methods();
                Map<String, List<OverheadBudget.Removal>> byClass = new HashMap<>();
                for (OverheadBudget.Removal r : chosen) {
                    ProbeSlots.Method m = methods.get(r.slot());
                    if (m == null || r.slot() >= looked.size() || m != looked.get(r.slot())) continue;  // unloaded since the look
                    byClass.computeIfAbsent(m.token().owner().binaryName(), k -> new ArrayList<>()).add(r);
                }
                // The loaded classes of those names whose loader is the method's (its token names it).
                Map<Class<?>, List<OverheadBudget.Removal>> owners = new java.util.LinkedHashMap<>();
                for (Class<?> c : loadedClassesWithClassFiles()) {
                    List<OverheadBudget.Removal> named = byClass.get(c.getName());
                    if (named == null) continue;
                    for (OverheadBudget.Removal r : named) {
                        if (slots.definedBy(methods.get(r.slot()).token(), c.getClassLoader())) {
                            owners.computeIfAbsent(c, k -> new ArrayList<>()).add(r);
                        }
                    }
                }
                boolean turnsOff = probesTurnOff();
                List<Class<?>> again = unstranded(new ArrayList<>(owners.keySet()), turnsOff
                        ? "left unchanged, the probes the overhead budget chose in it turned off where they are"
                        : "left unchanged, the probes the overhead budget chose in it still counting (it no longer counts them)");
                Set<Class<?>> changing = new HashSet<>(again);
                List<Removed> out = new ArrayList<>();
                try {
                    for (Map.Entry<Class<?>, List<OverheadBudget.Removal>> e : owners.entrySet()) {
                        if (!changing.contains(e.getKey())) keepProbesIn(e.getValue(), methods, turnsOff, out);  // before the others' retransform, which takes a while
                        for (OverheadBudget.Removal r : e.getValue()) {
                            ProbeSlots.Method m = methods.get(r.slot());
                            // Out of any later change of the class: once its loop has ended, the probe goes with it.
                            instrumenter.remove(e.getKey().getClassLoader(), e.getKey().getName(), m.token().name(), m.token().descriptor());
                        }
                    }
                    Set<Class<?>> refused = new HashSet<>(retransform(again));
                    for (Map.Entry<Class<?>, List<OverheadBudget.Removal>> e : owners.entrySet()) {
                        if (!changing.contains(e.getKey())) continue;
                        if (refused.contains(e.getKey())) {
                            keepProbesIn(e.getValue(), methods, turnsOff, out);  // the class file it had, probes and all: as in a class running a loop
                        } else {
                            for (OverheadBudget.Removal r : e.getValue()) out.add(removed(r, methods));
                        }
                    }
                } finally {  // probes turned off before a retransform that failed are reported all the same
                    out.sort(Results.REMOVED_BY_RATE.reversed());  // the recording lists a round's hottest first
                    removed.addAll(out);
                }
            }
        }

        /**
         * The chosen probes of a class that keeps them (it runs a loop, or the JVM refused to
         * change it): turned off where they are if {@code turnsOff}, and no longer counted by the
         * budget, since calls under way when they turned off still end in them. Those turned off
         * are added to {@code out}.
         */
        private void keepProbesIn(List<OverheadBudget.Removal> chosen, List<ProbeSlots.Method> methods, boolean turnsOff,
                                  List<Removed> out) {
            if (turnsOff) ProbeControl.turnOff(chosen.stream().mapToInt(OverheadBudget.Removal::slot).toArray());
            for (OverheadBudget.Removal r : chosen) {
                budget.ignore(r.slot());
                if (turnsOff) out.add(removed(r, methods));
            }
        }

        /** A removal as the results name it: the method's name and its call rate when chosen. */
        private static Removed removed(OverheadBudget.Removal r, List<ProbeSlots.Method> methods) {
            return new Removed(methods.get(r.slot()).humanName(), r.callsPerSecond());
        }

        /**
         * Whether a probe can be turned off where it is ({@link ProbeControl#turnOff}) in a class
         * that cannot change: time and trace probes, whose clock reads and captures it saves; a
         * count probe costs about what the check would.
         */
        private boolean probesTurnOff() {
            return options.mode() != TraceMode.COUNT;
        }

        /**
         * Runs the transformer once on a class file of its own, so the classes the class-file API
         * needs are loaded before the hook is on (they would be dropped as re-entrant events).
         */
        private void warmUp() {
            try (InputStream in = Tracing.class.getResourceAsStream("WarmUp.class")) {
                if (in == null) return;
                byte[] bytes = in.readAllBytes();
                for (TraceMode m : TraceMode.values()) {
                    new Instrumenter(MethodFilter.parse("dev.tiprobe.agent.tracing.WarmUp"), m,
                            (name, loader, source, file) -> method -> 0, Instrumenter.LoadedClasses.NONE).transform(null, null, bytes, false);
                }
            } catch (IOException | RuntimeException e) {
                classFailures.add("warm-up: " + e);
            }
        }

        /** Whether HotSpot verifies retransformed application classes itself (it does unless told not to). */
        private static final boolean JVM_VERIFIES = dev.tiprobe.agent.jvm.JvmOptions.verifiesApplicationClasses();

        /**
         * A class file as it loads or is retransformed, on whichever thread does that: often the
         * program's, whose calls into the JDK meanwhile are tiprobe's and are not counted, and
         * whose JVMTI events meanwhile (an allocation sampled) are dropped ({@link Jvmti#beginOwnWork}).
         * Each caller tells the probe how long its whole hook took ({@link ProbeControl#ownWorkTook}),
         * for the traced calls running on the thread to leave out: the JVMTI hook's upcall spent up
         * to 10 ms around this method on a class's first instrumenting (its arguments made Java
         * objects, the new bytes copied back, each path's first run).
         */
        private byte[] onClassFile(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain,
                                   byte[] classFile) {
            long began = System.nanoTime();
            boolean instrumentable = false;
            try {
                if (redefined == null) loadedNames.defining(loader);
                if (redefined == null && newClassesRefused) return null;
                boolean marked = ProbeControl.tiprobesWork(true);
                boolean inside = Jvmti.beginOwnWork();
                try {
                    instrumentable = active && instrumenter.mayInstrument(name);
                    return instrumentable ? transformed(loader, name, domain, classFile, redefined != null, redefined != null && loader != null && JVM_VERIFIES) : null;
                } finally {
                    Jvmti.endOwnWork(inside);
                    ProbeControl.tiprobesWork(marked);
                }
            } finally {
                if (instrumentable) instrumentingNanos.add(System.nanoTime() - began);
            }
        }

        private byte[] transformed(ClassLoader loader, String name, ProtectionDomain domain, byte[] classFile, boolean retransformed,
                                   boolean jvmVerifies) {
            CallTally tally = retransformed ? callTally.get() : null;  // a class loading on the thread meanwhile counts at once
            try {
                Instrumenter.Result r = instrumenter.transform(loader, codeSource(domain), classFile, jvmVerifies);
                if (tally != null) tally.skipped.addAll(r.skipped());
                else skipped.addAll(r.skipped());
                if (r.bytes() == null) return null;
                int slash = name.lastIndexOf('/');
                Module module = namedModule(loader, slash < 0 ? "" : name.substring(0, slash));
                if (module != null) readProbe(module);
                synchronized (changed) {
                    if (loader == null) changedByBoot.add(name);
                    else changed.computeIfAbsent(loader, l -> new HashSet<>()).add(name);
                }
                if (tally != null) tally.classes++;
                else classesInstrumented.incrementAndGet();
                return r.bytes();
            } catch (Throwable t) {
                String failure = name.replace('/', '.') + ": left unchanged: " + t;
                if (tally != null) tally.failures.add(failure);
                else classFailures.add(failure);
                return null;
            }
        }

        /**
         * What the class files of one retransform call added, kept apart until the call succeeds:
         * a refused call is done again in halves, and would count its classes again each time.
         */
        private static final class CallTally {
            long classes;
            final List<Skipped> skipped = new ArrayList<>();
            final List<String> failures = new ArrayList<>();
        }

        /** The retransform call under way on this thread, whose class files come through the hook on it; or null. */
        private final ThreadLocal<CallTally> callTally = new ThreadLocal<>();

        /** Injected code in a named module must read the probe's module (the boot loader's unnamed one). */
        private void readProbe(Module module) {
            Module probe = Probe.class.getModule();
            if (module.canRead(probe)) return;
            Jvmti j = jvmti;
            if (j != null) j.addModuleReads(module, probe);
            else inst.redefineModule(module, Set.of(probe), Map.of(), Map.of(), Set.of(), Map.of());
        }

        private static String codeSource(ProtectionDomain domain) {
            CodeSource cs = domain == null ? null : domain.getCodeSource();
            URL location = cs == null ? null : cs.getLocation();
            return location == null ? null : location.toString();
        }

        /**
         * Classes retransformed in one call. Each call throws away the compiled code that inlined
         * any method of its classes, and the program runs slowly until the JIT has compiled it
         * again: on H2 under load, 740 classes in calls of 64 kept it at a tenth of its speed for
         * 8 s, and in one call for about 3 s. Bounded, since JVMTI holds every new class file of a
         * call until the JVM changes them all, in one safepoint.
         */
        private static final int BATCH = 1024;

        /** Retransforms the loaded classes the filter may choose, in batches, the budget looking between them. */
        private void retransformLoaded() {
            Jvmti j = jvmti;
            List<Class<?>> candidates = new ArrayList<>();
            for (Class<?> c : loadedClassesWithClassFiles()) {
                if (!instrumenter.mayInstrument(c.getName().replace('.', '/'))) continue;
                if (!(j != null ? j.isModifiableClass(c) : inst.isModifiableClass(c))) continue;
                candidates.add(c);
            }
            if (j != null) candidates = unstranded(candidates, "left unchanged, so its methods are not traced (tiprobe run traces them from the start)");
            for (int i = 0; i < candidates.size(); i += BATCH) {
                retransform(candidates.subList(i, Math.min(candidates.size(), i + BATCH)));
                lookAtBudget(true);
            }
        }

        /**
         * Those of {@code classes} that can change without stranding a running loop
         * ({@link RunningLoops}); each of the others is left as it is, and the report says so,
         * with {@code consequence}: what that means for its calls.
         */
        private List<Class<?>> unstranded(List<Class<?>> classes, String consequence) {
            Map<Class<?>, RunningLoops.Loop> running;
            try {
                running = RunningLoops.in(jvmti, classes);
            } catch (InterruptedException e) {  // the session stops: nothing is changed that might strand a loop
                Thread.currentThread().interrupt();
                return List.of();
            } catch (RuntimeException e) {
                classFailures.add(classes.size() + " classes: " + consequence + ": could not look for running loops: " + e.getMessage());
                return List.of();
            }
            if (running.isEmpty()) return classes;
            List<Class<?>> out = new ArrayList<>();
            for (Class<?> c : classes) {
                RunningLoops.Loop loop = running.get(c);
                if (loop == null) out.add(c);
                else classFailures.add(c.getName() + ": " + consequence + ": " + loop + " was running a loop in it, which a change"
                        + " would leave interpreted for good");
            }
            return out;
        }

        /** Loaded classes that come from a class file (no arrays, primitives or hidden classes). */
        private List<Class<?>> loadedClassesWithClassFiles() {
            Jvmti j = jvmti;
            List<Class<?>> out = new ArrayList<>();
            for (Class<?> c : j != null ? j.loadedClasses() : inst.getAllLoadedClasses()) {
                if (!c.isArray() && !c.isPrimitive() && !c.isHidden()) out.add(c);
            }
            return out;
        }

        /**
         * Retransforms through JVMTI, or through java.lang.instrument before JVMTI is reached;
         * the classes the JVM refused, each of which keeps the class file it had.
         */
        private List<Class<?>> retransform(List<Class<?>> classes) {
            List<Class<?>> refused = new ArrayList<>();
            for (int i = 0; i < classes.size(); i += BATCH) retransformOrSplit(classes.subList(i, Math.min(classes.size(), i + BATCH)), refused);
            return refused;
        }

        /**
         * A class the JVM refuses fails its whole call, and nothing in it changes: the call is
         * done again in halves, until the class that fails is alone. Done class by class instead,
         * each call would throw compiled code away again.
         */
        private void retransformOrSplit(List<Class<?>> batch, List<Class<?>> refusedClasses) {
            CallTally tally = new CallTally();
            Throwable refused = null;
            callTally.set(tally);
            try {
                retransform(batch.toArray(Class<?>[]::new));
            } catch (Exception | LinkageError e) {  // java.lang.instrument throws the JVM's VerifyError or ClassFormatError
                refused = e;
            } finally {
                callTally.remove();
            }
            if (refused == null || batch.size() == 1) {
                skipped.addAll(tally.skipped);
                tally.failures.forEach(classFailures::add);
                if (refused == null) {
                    classesInstrumented.addAndGet(tally.classes);
                } else {
                    classFailures.add(batch.getFirst().getName() + ": retransform failed: " + refused.getMessage());
                    refusedClasses.add(batch.getFirst());
                }
                return;
            }
            int half = batch.size() / 2;
            retransformOrSplit(batch.subList(0, half), refusedClasses);
            retransformOrSplit(batch.subList(half, batch.size()), refusedClasses);
        }

        private void retransform(Class<?>... classes) throws UnmodifiableClassException {
            Jvmti j = jvmti;
            if (j != null) j.retransformClasses(classes);
            else inst.retransformClasses(classes);
        }

        /**
         * What the probes saw so far, every method's figures and every call kept (the start's
         * reply; a look once a second takes {@link #tally} instead); the session keeps going.
         */
        public Results snapshot() {
            synchronized (LOCK) {
                if (finalResults != null) return finalResults;
                return collect(false, 0);
            }
        }

        /**
         * What {@code status} shows, once a second during {@code collect}: the mode, the filter,
         * and the methods and calls so far, summed without copying any method, its figures or any
         * traced call as {@link #snapshot} does.
         */
        public Tally tally() {
            synchronized (LOCK) {
                if (finalResults != null) {
                    return new Tally(finalResults.mode(), finalResults.filter(), finalResults.methodCount(), finalResults.totalCalls(),
                            finalResults.clock());
                }
                // A free slot's figures were zeroed when it was given back, and retired slots are left out: every slot's calls are the live methods'.
                long calls = Arrays.stream(callsBySlot()).sum();
                return new Tally(options.mode(), options.filter().toString(), slots.inUse() + unloadedMethods, calls + unloadedCalls,
                        options.mode() == TraceMode.TIME ? clock() : null);
            }
        }

        /**
         * What the probes saw so far, to be written to the recording: methods whose classes
         * unloaded are in it for the last time ({@link Results.MethodResult#unloaded()}), up to
         * {@link #SETTLED_AT_ONCE} of them (the others wait, left out, for the next drains, which
         * {@link #anyUnloaded} asks for), and their slots are given back. The session keeps going.
         */
        public Results drain() {
            synchronized (LOCK) {
                if (finalResults != null) return finalResults;
                return collect(true, SETTLED_AT_ONCE);
            }
        }

        /**
         * From now on classes that load are not instrumented (those instrumented keep their
         * probes), until {@link #allowNewClasses}: the agent's memory passed its ceiling, and each
         * new class's methods would take more. Says so among the classes left unchanged, with {@code why}, the first time.
         */
        public void refuseNewClasses(String why) {
            if (newClassesRefused) return;
            newClassesRefused = true;
            if (!refusedOnce) classFailures.add("classes loaded while tiprobe's memory was over its ceiling: left unchanged: " + why);
            refusedOnce = true;
        }

        /** Classes that load are instrumented again: the agent's memory is well under its ceiling again. */
        public void allowNewClasses() {
            newClassesRefused = false;
        }

        private volatile boolean refusedOnce;

        /** What tracing holds in the heap besides the ID map's tokens: the slots' tables and the probes' figures, in bytes. */
        public long estimatedBytes() {
            return slots.estimatedBytes() + ProbeControl.footprintBytes();
        }

        /** Slots in use (methods of loaded classes) and the highest slot handed out plus one: what the probes' figures take. */
        public String slotUse() {
            return slots.inUse() + " of " + slots.size() + " slots in use, their figures " + (ProbeControl.footprintBytes() >> 10) + " KiB";
        }

        /** Whether methods of classes that unloaded wait for {@link #drain()}. */
        public boolean anyUnloaded() {
            return slots.anyUnloaded();
        }

        /**
         * Stops: no more traced calls, and the results are final. Every class this session changed
         * gets its original class file back, but a class running a loop ({@link #unstranded}),
         * which keeps its probes, in no report from now on: time and trace probes turned off
         * where they are, count probes still counting.
         */
        public Results stop() {
            return stop(true);
        }

        /**
         * Stops, as {@link #stop()} does; without {@code restore} (the JVM exits), classes stay as they are.
         */
        public Results stop(boolean restore) {
            synchronized (LOCK) {
                if (finalResults != null) return finalResults;
                active = false;
                ProbeControl.stopTracing();
                ProbeControl.openFieldsWith(null);
                if (restore) restoreClasses();
                if (hook != null) hook.close();
                finalResults = collect(true, Integer.MAX_VALUE);
            }
            AgentThreads.end(budgetWatcher, 2_000);  // outside the lock, which a removal round holds
            return finalResults;
        }

        /** Gives the classes this session changed their original class files back, but those running a loop. */
        private void restoreClasses() {
            List<Class<?>> changedNow = new ArrayList<>();
            synchronized (changed) {
                for (Class<?> c : loadedClassesWithClassFiles()) {
                    ClassLoader loader = c.getClassLoader();
                    Set<String> names = loader == null ? changedByBoot : changed.get(loader);
                    if (names != null && names.contains(c.getName().replace('.', '/'))) changedNow.add(c);
                }
            }
            boolean turnsOff = probesTurnOff();
            List<Class<?>> restore = jvmti == null ? changedNow : unstranded(changedNow, turnsOff
                    ? "left instrumented, its probes turned off where they are and in no report from now on"
                    : "left instrumented, its probes still counting but in no report from now on");
            if (restore.size() < changedNow.size()) retireSlots(turnsOff);
            if (!retransform(restore).isEmpty()) retireSlots(turnsOff);  // a class the JVM would not give its class file back keeps its probes too
        }

        /**
         * No later session hands out this one's slots: classes left instrumented still call them,
         * their time and trace probes turned off where they are.
         */
        private void retireSlots(boolean turnsOff) {
            if (retiredBelow >= slots.size()) return;
            retiredBelow = slots.size();
            if (turnsOff) ProbeControl.turnOff(java.util.stream.IntStream.range(slots.firstSlot(), slots.size()).toArray());
        }

        /** The timed call sites of a call that ran, slowest first; none where its sites were not timed. */
        private List<Callee> callees(Call c) {
            long[] nanos = c.siteNanos();
            if (nanos.length == 0) return List.of();
            long[] calls = c.siteCalls();
            List<String> names = slots.callSites(c.slot());
            List<Callee> out = new ArrayList<>();
            for (int i = 0; i < nanos.length; i++) {
                if (calls[i] > 0) out.add(new Callee(i < names.size() ? names.get(i) : "call site " + i, calls[i], nanos[i]));
            }
            out.sort(java.util.Comparator.comparingLong(Callee::nanos).reversed());
            return out;
        }

        /** Unloaded methods whose last figures one drain writes at most: about 3 MB of figures made and let go. */
        static final int SETTLED_AT_ONCE = 4_096;

        /**
         * What the probes saw so far. With {@code release}, up to {@code settleAtMost} methods of
         * classes that unloaded are in it one last time, then their slots are given back (the
         * other unloaded ones are left out until their turn): a program that makes and drops
         * classes all day keeps figures for the classes alive, its recording the rest.
         */
        private Results collect(boolean release, int settleAtMost) {
            List<ProbeSlots.Method> gone = release ? slots.unloaded(settleAtMost) : List.of();
            Set<Integer> goneSlots = new HashSet<>();
            for (ProbeSlots.Method m : gone) goneSlots.add(m.slot());
            java.util.BitSet waiting = release ? slots.waitingSlots() : new java.util.BitSet();
            List<ProbeSlots.Method> methods = slots.methods();
            int n = methods.size();
            List<ProbeSlots.Method> inUse = methods.stream().filter(m -> m != null && !waiting.get(m.slot())).toList();
            // Time mode counts at the exits (in the time figures); the other modes count at entry.
            // Figures of the slots in use only: under churn, slots handed out run to a hundred times those.
            ProbeControl.TimeFigures[] times = options.mode() == TraceMode.TIME
                    ? ProbeControl.timeFigures(inUse.stream().mapToInt(ProbeSlots.Method::slot).toArray()) : null;
            long[] counts = times == null ? ProbeControl.counts(n) : null;
            List<Results.MethodResult> out = new ArrayList<>();
            String[] names = new String[n];  // made once a collection, for the methods' figures and their calls alike
            for (int k = 0; k < inUse.size(); k++) {
                ProbeSlots.Method m = inUse.get(k);
                long calls;
                Results.TimeStats time = null;
                if (times == null) {
                    calls = counts[m.slot()];
                } else {
                    ProbeControl.TimeFigures t = times[k];
                    calls = t.calls();
                    time = new Results.TimeStats(t.totalNanos(), t.minNanos(), t.maxNanos(), t.histogram());
                }
                names[m.slot()] = m.humanName();
                out.add(new Results.MethodResult(m.token(), names[m.slot()], m.token().owner().binaryName(), m.token().name(),
                        m.token().descriptor(), calls, time, goneSlots.contains(m.slot())));
            }
            List<Results.TracedCall> traced = new ArrayList<>();
            Set<dev.tiprobe.recording.Call.Id> heldBack = new HashSet<>();
            if (options.mode() == TraceMode.TRACE) {
                for (Call c : ProbeControl.tracedCalls()) {
                    long start = startEpochNanos + (c.startNanos() - startNanoTime);
                    // A method given its slot after the look at the slots waits for the next collection.
                    ProbeSlots.Method m = c.slot() < methods.size() ? methods.get(c.slot()) : null;
                    if (m == null || waiting.get(c.slot())) {  // a method waiting to be settled: its calls come with it
                        heldBack.add(new dev.tiprobe.recording.Call.Id(c.threadId(), start, c.depth()));
                        continue;
                    }
                    long duration = c.outcome() == Call.RUNNING ? -1 : c.durationNanos();
                    Object stack = c.callerStack();  // named here if it was taken early and the namer has come
                    traced.add(new Results.TracedCall(m.token(), names[c.slot()], c.threadId(), c.threadName(), c.depth(),
                            start, duration, m.parameterNames(),
                            Arrays.asList(c.args()), c.result(), c.outcome() == Call.THREW,
                            stack instanceof Stack named ? named : null, stack instanceof EarlyStack, callees(c)));
                }
            }
            // Handed out with release: what the recording writes once and the session forgets.
            Results r = new Results(options.mode(), options.filter().toString(), out, traced, heldBack,
                    release ? skipped.take() : skipped.look(), release ? classFailures.take() : classFailures.look(),
                    classesInstrumented.get(), instrumentingNanos.sum(), ProbeControl.droppedCalls(), ProbeControl.failures(),
                    release ? removed.take() : removed.look(), options.overheadBudget(), options.mode() == TraceMode.TIME ? clock() : null,
                    unloadedMethods, unloadedCalls);
            for (Results.MethodResult m : out) {
                if (m.unloaded()) {
                    unloadedMethods++;
                    unloadedCalls += m.calls();
                }
            }
            OverheadBudget b = budget;
            if (b != null) for (ProbeSlots.Method m : gone) b.forget(m.slot());
            slots.release(gone);
            return r;
        }
    }
}
