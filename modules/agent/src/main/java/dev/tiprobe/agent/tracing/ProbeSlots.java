package dev.tiprobe.agent.tracing;

import dev.tiprobe.ids.ClassToken;
import dev.tiprobe.ids.HumanNames;
import dev.tiprobe.ids.IdMap;
import dev.tiprobe.ids.MethodToken;
import dev.tiprobe.ids.ParameterNames;
import dev.tiprobe.probe.ProbeControl;

import java.lang.classfile.Attributes;
import java.lang.classfile.MethodModel;
import java.lang.classfile.attribute.LineNumberInfo;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiFunction;

/**
 * The compact ints that enter probes carry: one per instrumented method, given at transform time,
 * stable while its class is loaded (a class retransformed again gets the same ones). Each slot's
 * method token is interned in the session's ID map, the one the recorder and the registry use,
 * its class and loader named as the registry names them ({@link IdMap#loaders()}). Its line table
 * is the original class file's, where the registry reads the instrumented method's from JVMTI
 * (the probe shifts every offset): a traced method that is also sampled still has two tokens,
 * with one name.
 *
 * <p>Slots are given back when their classes unload: a program that compiles and drops scripts
 * all day would otherwise need ever higher slots, and every thread's figures grow with the highest
 * slot it ran. A class loader that is collected has no class left, so its slots are
 * {@link #unloaded()}; their figures are read one last time, then {@link #release}d and handed to
 * new methods. Slots of the boot, platform and application loaders are kept for the session
 * (their classes do not unload; their hidden classes can, and keep their slots).
 */
final class ProbeSlots implements Instrumenter.Slots {
    /** What a slot stands for. */
    record Method(int slot, int tokenId, MethodToken token, List<String> parameterNames) {
        /**
         * The name reports show, with parameter names where known: made when asked for, not kept
         * (under class churn a string per traced method took megabytes of the application's heap).
         */
        String humanName() {
            return HumanNames.method(token, parameterNames);
        }
    }

    /**
     * The slots of one class loader's methods by class, name and descriptor: enqueued once the
     * loader is collected. Per loader, so that a new loader given the name of a collected one
     * (the same {@code LoaderRef}) never meets the old one's slots.
     */
    private static final class LoaderSlots extends WeakReference<ClassLoader> {
        final Map<Key, Integer> byKey = new HashMap<>();

        LoaderSlots(ClassLoader loader, ReferenceQueue<ClassLoader> queue) {
            super(loader, queue);
        }
    }

    /**
     * A method as its slot is found: the class's token, shared by its methods, and the name and
     * descriptor interned, shared with its {@link MethodToken}. (A string made of all three cost
     * each traced method a hundred bytes more, kept as long as its class.)
     */
    private record Key(ClassToken owner, String name, String descriptor) {}

    private final IdMap map;
    /** Whether the map is this tracing's alone (a program tracing itself), so that releasing slots retires their tokens. */
    private final boolean ownMap;
    /** (loader, package) to module name and version, or null: for class tokens of named modules. */
    private final BiFunction<ClassLoader, String, Module> moduleOf;
    /** The slots of the loaders whose classes never unload: boot, platform, application. */
    private final LoaderSlots permanent = new LoaderSlots(null, null);
    /** By slot; null where a slot is free. */
    private final List<Method> methods = new ArrayList<>();
    private volatile AtomicReferenceArray<Method> bySlot = new AtomicReferenceArray<>(0);
    private final Map<ClassLoader, LoaderSlots> byLoader = new WeakHashMap<>();
    private final ReferenceQueue<ClassLoader> collected = new ReferenceQueue<>();
    /** Methods of collected loaders not yet handed out by {@link #unloaded}. */
    private final java.util.ArrayDeque<Method> pending = new java.util.ArrayDeque<>();
    /** Slots given back, handed out again (the lowest first) before new ones: slots stay as few as the methods alive. */
    private final BitSet free = new BitSet();
    /** The callees of each slot's timed call sites, by site index, where a session times them (a watch's call tree). */
    private final Map<Integer, List<String>> callSites = new java.util.concurrent.ConcurrentHashMap<>();

    /** Slots below this are never handed out: an earlier session's probes, left in classes running a loop, still call them. */
    private final int firstSlot;

    ProbeSlots(IdMap map, boolean ownMap, BiFunction<ClassLoader, String, Module> moduleOf, int firstSlot) {
        this.map = map;
        this.ownMap = ownMap;
        this.moduleOf = moduleOf;
        this.firstSlot = firstSlot;
        for (int slot = 0; slot < firstSlot; slot++) put(slot, null);
    }

    @Override
    public ClassSlots forClass(String binaryName, ClassLoader loader, String codeSource, byte[] classFile) {
        return new ClassSlots(binaryName, loader, codeSource, classFile);
    }

    /**
     * The slots of one class file being transformed, and what is made once for all its methods:
     * its class token and its parameter names (parsed when a new slot first needs them). Held by
     * the transforming thread, so classes transformed at once on several threads share nothing
     * but the tables; the names and tokens of new methods are made outside the lock.
     */
    final class ClassSlots implements Instrumenter.ClassSlots {
        private final ClassLoader loader;
        private final byte[] classFile;
        private final ClassToken classToken;
        private Map<String, List<String>> parameterNames;

        private ClassSlots(String binaryName, ClassLoader loader, String codeSource, byte[] classFile) {
            this.loader = loader;
            this.classFile = classFile;
            this.classToken = classToken(binaryName, loader, codeSource);
        }

        @Override
        public int slotFor(MethodModel m) {
            String name = m.methodName().stringValue().intern();
            String desc = m.methodType().stringValue().intern();
            Key key = new Key(classToken, name, desc);
            Integer known = known(loader, key);
            if (known != null) return known;
            MethodToken token = new MethodToken(classToken, name, desc, genericSignature(m), m.flags().flagsMask(), lineTable(m));
            if (parameterNames == null) parameterNames = ParameterNames.of(classFile);
            List<String> parameters = parameterNames.get(name + desc);
            m.parent().flatMap(c -> c.findAttribute(Attributes.sourceFile()))
                    .ifPresent(f -> map.sourceFile(classToken, f.sourceFile().stringValue()));
            return add(loader, key, token, parameters);
        }

        @Override
        public void callSites(int slot, List<String> callees) {
            ProbeSlots.this.callSites.put(slot, callees);
        }
    }

    /** The callees of {@code slot}'s timed call sites, by site index; empty where none were timed. */
    List<String> callSites(int slot) {
        return callSites.getOrDefault(slot, List.of());
    }

    private synchronized Integer known(ClassLoader loader, Key key) {
        return slotsOf(loader).byKey.get(key);
    }

    /** A slot for a method made outside the lock, unless another thread gave it one meanwhile. */
    private synchronized int add(ClassLoader loader, Key key, MethodToken token, List<String> parameters) {
        LoaderSlots ofLoader = slotsOf(loader);
        Integer known = ofLoader.byKey.get(key);
        if (known != null) return known;
        int reused = free.nextSetBit(0);
        if (reused >= 0) free.clear(reused);
        int slot = reused >= 0 ? reused : methods.size();
        put(slot, new Method(slot, map.internMethodToken(token), token, parameters));
        ofLoader.byKey.put(key, slot);
        ProbeControl.reserve(slot + 1);
        return slot;
    }

    private LoaderSlots slotsOf(ClassLoader loader) {
        return mayUnload(loader) ? byLoader.computeIfAbsent(loader, l -> new LoaderSlots(l, collected)) : permanent;
    }

    private static String genericSignature(MethodModel m) {
        return m.findAttribute(Attributes.signature()).map(s -> s.signature().stringValue()).orElse(null);
    }

    /** Bytecode offsets and line numbers in pairs, as the class file has them. */
    private static int[] lineTable(MethodModel m) {
        return m.code().flatMap(c -> c.findAttribute(Attributes.lineNumberTable())).map(t -> {
            List<LineNumberInfo> l = t.lineNumbers();
            int[] pairs = new int[l.size() * 2];
            for (int i = 0; i < l.size(); i++) {
                pairs[2 * i] = l.get(i).startPc();
                pairs[2 * i + 1] = l.get(i).lineNumber();
            }
            return pairs;
        }).orElse(new int[0]);
    }

    private static boolean mayUnload(ClassLoader loader) {
        return loader != null && loader != ClassLoader.getPlatformClassLoader() && loader != ClassLoader.getSystemClassLoader();
    }

    /** Whether classes of a collected loader wait for {@link #unloaded}. */
    synchronized boolean anyUnloaded() {
        for (Reference<? extends ClassLoader> r; (r = collected.poll()) != null; ) {
            for (int slot : ((LoaderSlots) r).byKey.values()) pending.add(methods.get(slot));
        }
        return !pending.isEmpty();
    }

    /**
     * Up to {@code atMost} of the methods whose class loaders were collected and that were not
     * handed out before: their figures are final. They keep their slots until {@link #release}.
     * A G1 cycle after minutes without one unloads tens of thousands of classes at once, and
     * settling all their methods in one write made arrays of tens of megabytes for a moment.
     */
    synchronized List<Method> unloaded(int atMost) {
        anyUnloaded();
        List<Method> out = new ArrayList<>(Math.min(atMost, pending.size()));
        while (out.size() < atMost && !pending.isEmpty()) out.add(pending.poll());
        return out;
    }

    /** The slots of unloaded methods not handed out yet: their figures wait to be settled, not read meanwhile. */
    synchronized BitSet waitingSlots() {
        BitSet waiting = new BitSet();
        for (Method m : pending) waiting.set(m.slot());
        return waiting;
    }

    /**
     * Gives back the slots of {@code gone} (from {@link #unloaded}), their figures dropped. A
     * session's map retires their tokens once the recording has written their last figures (the
     * recorder asks); a map of this tracing's own retires them now.
     */
    synchronized void release(List<Method> gone) {
        if (gone.isEmpty()) return;
        ProbeControl.release(gone.stream().mapToInt(Method::slot).toArray());
        for (Method m : gone) {
            if (ownMap) map.retireLater(m.tokenId());
            put(m.slot(), null);
            callSites.remove(m.slot());
            free.set(m.slot());
        }
        ProbeControl.dropFreeChunks(methods.size(), slot -> !free.get(slot));
        if (ownMap) map.retireUnloaded(System.nanoTime() + 1);  // the slots were all that named these tokens
    }

    /** Whether the method of {@code token} belongs to {@code loader}'s class of its name, as the map names loaders. */
    boolean definedBy(MethodToken token, ClassLoader loader) {
        return token.owner().loader().equals(map.loaders().of(loader));
    }

    private ClassToken classToken(String binaryName, ClassLoader loader, String codeSource) {
        int dot = binaryName.lastIndexOf('.');
        Module module = moduleOf.apply(loader, dot < 0 ? "" : binaryName.substring(0, dot).replace('.', '/'));
        String moduleName = module != null && module.isNamed() ? module.getName() : null;
        String version = moduleName != null && module.getDescriptor() != null
                ? module.getDescriptor().rawVersion().orElse(null) : null;
        return new ClassToken(ClassToken.stableName(binaryName), map.loaders().of(loader), moduleName, version, codeSource);
    }

    /**
     * What a slot stands for now, or null; without the lock, since a condition asks at the end of
     * every traced call on the program's threads ({@link #methods} holds the same, under the lock).
     */
    Method method(int slot) {
        AtomicReferenceArray<Method> now = bySlot;
        return slot >= 0 && slot < now.length() ? now.get(slot) : null;
    }

    /** Sets what a slot stands for, in {@link #methods} and for {@link #method}; under the lock. */
    private void put(int slot, Method method) {
        if (slot < methods.size()) methods.set(slot, method);
        else methods.add(method);
        AtomicReferenceArray<Method> now = bySlot;
        if (slot >= now.length()) {
            AtomicReferenceArray<Method> bigger = new AtomicReferenceArray<>(Math.max(64, 2 * slot));
            for (int i = 0; i < now.length(); i++) bigger.set(i, now.get(i));
            bySlot = now = bigger;
        }
        now.set(slot, method);
    }

    /** The lowest slot this session hands out: those below are an earlier session's, retired. */
    int firstSlot() {
        return firstSlot;
    }

    /** One more than the highest slot handed out. */
    synchronized int size() {
        return methods.size();
    }

    /** Slots that stand for a method now. */
    synchronized int inUse() {
        return methods.size() - free.cardinality() - firstSlot;
    }

    /**
     * About how many bytes of the heap the slots' tables hold: per method in a slot, its record,
     * its key and the key's hash entry, its parameter names' list ({@value #METHOD_BYTES}); per slot
     * handed out, a reference. The method tokens are the ID map's, counted there.
     */
    synchronized long estimatedBytes() {
        return METHOD_BYTES * inUse() + 4L * methods.size();
    }

    static final long METHOD_BYTES = 140;

    /** By slot, null where a slot is free. */
    synchronized List<Method> methods() {
        return Collections.unmodifiableList(new ArrayList<>(methods));
    }
}
