package dev.tiprobe.agent.registry;

import dev.tiprobe.agent.jvm.AgentThreads;
import dev.tiprobe.agent.sink.EventEngine;
import dev.tiprobe.ids.ClassToken;
import dev.tiprobe.ids.Descriptors;
import dev.tiprobe.ids.IdMap;
import dev.tiprobe.ids.LoaderRef;
import dev.tiprobe.ids.MethodToken;
import dev.tiprobe.jvmti.Capability;
import dev.tiprobe.jvmti.Event;
import dev.tiprobe.jvmti.Events;
import dev.tiprobe.jvmti.Jvmti;
import dev.tiprobe.jvmti.JvmtiError;
import dev.tiprobe.jvmti.JvmtiException;

import java.lang.ref.WeakReference;
import java.net.URL;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Feeds the {@link IdMap} from JVMTI, only ever in the safe direction (run-time ID to token):
 * the backfill at start, ClassPrepare, classes of objects, and jmethodIDs met in stack walks.
 * It never loads or initializes a class: reverse lookups and type references are answered from
 * what is loaded (the map, GetClassLoaderClasses), and "not loaded" is a normal answer.
 *
 * <p>Classes are identified by tags tiprobe puts on their Class objects (SetTag); ObjectFree
 * reports each tag when its class unloads, and the map forgets the class and its methods then.
 * Tags outlive the registry that set them (a Class object keeps its tag after a session ends), so
 * each registry tags in a range of its own and registers again a class that an earlier registry
 * tagged: the tenth session in a JVM learns every class as the first did.
 * The registry keeps Class objects only through weak references, so it never holds a class in
 * memory. A ClassPrepare that the facade dropped (a class loaded inside another tiprobe callback)
 * is caught up by {@link #reconcile()}.
 *
 * <p>The ClassPrepare handler only queues the class; the {@code tiprobe-registry} thread registers
 * it. A class can load (and ClassPrepare fire) on any thread at any moment, including one that
 * holds a lock of the map or of this registry: a handler that took those locks could deadlock
 * with another registering thread, and would slow the application's class loading besides.
 */
public final class Registry implements AutoCloseable {
    /** A registry's tags are {@code generation << TAG_BITS} and up: high, and never another registry's. */
    private static final int TAG_BITS = 40;
    /** Registries made so far in this JVM (the agent is loaded by one loader, so this counter is the JVM's). */
    private static final AtomicLong GENERATIONS = new AtomicLong();

    private final Jvmti jvmti;
    private final IdMap map;
    private final long firstTag = GENERATIONS.incrementAndGet() << TAG_BITS;
    private final AtomicLong nextTag = new AtomicLong(firstTag);
    private final dev.tiprobe.ids.LongMap<WeakReference<Class<?>>> classesByTag = new dev.tiprobe.ids.LongMap<>();
    /** Each class's methods with a hash of their names and descriptors, for naming frames by name ({@link #catalog}). Guarded by this. */
    private final dev.tiprobe.ids.LongMap<Catalog> catalogs = new dev.tiprobe.ids.LongMap<>();
    /** The methods the catalogs list, for the footprint. Guarded by this. */
    private long cataloged;
    private final List<Events.Registration> registrations = new ArrayList<>();
    /**
     * Classes prepared, for the registry thread. Lock-free, and woken with {@link LockSupport}: the
     * ClassPrepare handler that fills it runs inside class linking, and a queue built on
     * java.util.concurrent's locks deadlocked there when the JVM was first making those locks'
     * own node classes, on the registry thread waiting on the queue and on a thread offering to it.
     */
    private final ConcurrentLinkedQueue<Class<?>> prepared = new ConcurrentLinkedQueue<>();
    /** Classes queued in {@link #prepared} that a thread of tiprobe's or JFR's loaded: the listener is not told of them. */
    private final java.util.Set<Class<?>> loadedByMachinery = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Tags of registered classes the listener was not told of, so that it is not told of their unloads either. */
    private final java.util.Set<Long> untold = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /**
     * Polls of {@link #prepared} the registry thread has begun, and those it has finished
     * (registering what it took), so that {@link #sync} can wait for a class the thread has taken
     * and not registered yet, neither queued nor registered: on a busy machine the thread may be
     * descheduled between the two.
     */
    private final AtomicLong registrarPolls = new AtomicLong();
    private final AtomicLong registrarPollsDone = new AtomicLong();
    private final AtomicLong registrationFailures = new AtomicLong();
    private final Thread registrar;
    private volatile boolean closed;
    /** Open once every class loaded before the start is registered. */
    private final CountDownLatch backfilled;

    private Registry(Jvmti jvmti, IdMap map, boolean backfillOnRegistrar) {
        this.jvmti = jvmti;
        this.map = map;
        this.backfilled = new CountDownLatch(backfillOnRegistrar ? 1 : 0);
        this.registrar = AgentThreads.daemon("tiprobe-registry").unstarted(() -> {
            if (backfillOnRegistrar) {
                backfillQuietly();
                backfilled.countDown();
            }
            registerQueued();
        });
        // The handler's paths run once here, before any handler can: nothing is linked inside a callback.
        prepared.offer(Registry.class);
        prepared.poll();
        loadsForMachinery(Thread.currentThread());
        loadsForMachinery(null);
        loadedByMachinery.add(Registry.class);
        loadedByMachinery.remove(Registry.class);
        LockSupport.unpark(registrar);  // a thread not started yet: nothing to wake
    }

    /**
     * Starts watching: adds the capabilities it needs, listens to ClassPrepare and ObjectFree,
     * then maps every class loaded so far (the attach-time backfill).
     */
    public static Registry start(Jvmti jvmti) {
        return start(jvmti, new IdMap());
    }

    /** As {@link #start(Jvmti)}, filling {@code map} (which may already hold interned tokens). */
    public static Registry start(Jvmti jvmti, IdMap map) {
        Registry r = listening(jvmti, map, false);
        r.reconcile();
        return r;
    }

    /**
     * As {@link #start(Jvmti, IdMap)}, but returns before the backfill, which the registry thread
     * does first. For the sampler: {@link #resolve} learns a frame's class the moment it meets it,
     * so sampling can begin at once instead of after the backfill (half a second in a cold JVM).
     */
    public static Registry startBackfilling(Jvmti jvmti, IdMap map) {
        return listening(jvmti, map, true);
    }

    private static Registry listening(Jvmti jvmti, IdMap map, boolean backfillOnRegistrar) {
        Registry r = new Registry(jvmti, map, backfillOnRegistrar);
        // Nothing under this registry's lock or the map's, nor in a pinned section (an unload
        // waiting for the write lock holds back every new reader), may load a class once callbacks
        // run (see LoadAhead): their classes load now, and a registration, a method met by its ID
        // and one found by its name run each path once, linking the JVMTI calls and types they use.
        LoadAhead.packageOf(IdMap.class);
        LoadAhead.packageOf(Registry.class);
        r.register(Registry.class, false);
        long[] methods = jvmti.classMethods(LoadAhead.class);  // several: one met by its ID, another by its name
        r.resolve(methods[0]);
        Jvmti.MethodName other = jvmti.methodName(methods[methods.length - 1]);
        r.methodOf(LoadAhead.class, other.name(), other.descriptor());
        jvmti.addCapabilities(EnumSet.of(Capability.CAN_TAG_OBJECTS, Capability.CAN_GENERATE_OBJECT_FREE_EVENTS,
                Capability.CAN_GET_LINE_NUMBERS, Capability.CAN_GET_SOURCE_FILE_NAME));
        // Events first, then the backfill: a class prepared in between is met twice, and the tag
        // check makes the second meeting a no-op.
        r.registrations.add(jvmti.events().on(Event.OBJECT_FREE, r::unloaded));
        r.registrations.add(jvmti.events().on(Event.CLASS_PREPARE, (thread, type) -> {
            if (r.closed) return;  // a callback under way as the registry closes keeps nothing of the class
            // Told here, where the loading thread is known: the class is registered on another.
            if (loadsForMachinery(thread)) r.loadedByMachinery.add(type);
            r.prepared.offer(type);
            LockSupport.unpark(r.registrar);
        }));
        r.registrar.start();
        return r;
    }

    /**
     * Told of the program's classes registered and unloaded after it is set (not of the start-up
     * backfill): not of tiprobe's, nor of those tiprobe's threads and JFR's load (the JDK's classes
     * and lambda forms that tiprobe's work and the recording it reads need).
     */
    public interface ClassListener {
        void changed(boolean loaded, ClassToken token);
    }

    private volatile ClassListener listener;

    /**
     * Whether a class {@code thread} loads is for profiling machinery, not the program: on a
     * thread of tiprobe's or JFR's ({@link EventEngine#machinery}), or on the JVM's Attach
     * Listener, which runs attached agents (tiprobe's start: its CPU clock, its lambda forms) and
     * jcmd's commands, never the program's code.
     */
    private static boolean loadsForMachinery(Thread thread) {
        String name = thread == null ? null : thread.getName();
        return name != null && (EventEngine.machinery(name) || name.equals("Attach Listener"));
    }

    /** Sets the one listener (null: none). It runs on the thread that learns the change: keep it short. */
    public void listen(ClassListener l) {
        listener = l;
    }

    /** The map this registry fills. */
    public IdMap map() {
        return map;
    }

    /**
     * Registers every loaded, prepared class that is not registered yet: the backfill, and the
     * catch-up for ClassPrepare events dropped as re-entrant. Returns how many it added.
     */
    public int reconcile() {
        int added = 0;
        for (Class<?> c : jvmti.loadedClasses()) {
            if (c.isPrimitive() || c.isArray()) continue;
            if (!mine(jvmti.getTag(c)) && register(c, false) != null) added++;
        }
        return added;
    }

    /**
     * The class's entry, registering it first if needed. Null for arrays, primitives and classes
     * not prepared yet (they have no methods; ClassPrepare brings them). Its methods are learned
     * when first met ({@link #resolve}, {@link #methodNamed}): a JVM has tens of thousands of
     * methods, and a profile names a few hundred of them.
     */
    public IdMap.ClassEntry register(Class<?> type) {
        return register(type, false);
    }

    /**
     * As {@link #register(Class)}; {@code announce}: tell the listener of a class that loads now
     * (ClassPrepare), not of one met later that loaded before (the backfill, a stack frame).
     */
    private IdMap.ClassEntry register(Class<?> type, boolean announce) {
        if (type.isPrimitive() || type.isArray()) return null;
        long known = jvmti.getTag(type);
        if (mine(known)) return registered(type, known, announce);
        if (!jvmti.classStatus(type).prepared()) return null;
        // Named before the lock, never under it: naming calls JVMTI and may load one of tiprobe's
        // classes, which waits for its jar; an allocation callback waits for this lock on a thread
        // that may hold that jar while loading a class (one CI run hung so, in-process).
        ClassToken token = classToken(type);
        String sourceFile = sourceFileName(type);
        synchronized (this) {
            long tag = jvmti.getTag(type);
            if (mine(tag)) return registered(type, tag, announce);  // by another thread meanwhile
            tag = nextTag.getAndIncrement();
            // The mark is taken under the lock, by the one registration that decides.
            boolean programs = !loadedByMachinery.remove(type) && !tiprobes(token.binaryName());
            if (!programs) untold.add(tag);  // before the tag is set: the class cannot unload untold meanwhile
            map.addClass(tag, token);
            map.sourceFile(token, sourceFile);
            classesByTag.put(tag, new WeakReference<>(type));
            jvmti.setTag(type, tag);  // last: a tagged class is a fully registered class
            ClassListener l = listener;
            if (programs && l != null && announce) l.changed(true, token);
            return map.classByTag(tag);
        }
    }

    /**
     * The entry of a class registered already (by the backfill, or a frame or an allocation met
     * before its ClassPrepare was handled); one a machinery thread loaded is not told of when it
     * unloads either, and leaves no mark behind. {@code announce}: its ClassPrepare is handled
     * now, so it loaded while the registry listened, and the listener is told, as of a class
     * registered by its ClassPrepare: a busy program's samples and allocations meet most of its
     * new classes before the registry's thread handles their ClassPrepare.
     */
    private IdMap.ClassEntry registered(Class<?> type, long tag, boolean announce) {
        if (loadedByMachinery.remove(type)) untold.add(tag);
        IdMap.ClassEntry entry = map.classByTag(tag);
        ClassListener l = listener;
        if (announce && l != null && entry != null && !untold.contains(tag)) l.changed(true, entry.token());
        return entry;
    }

    /**
     * A class's name in allocation and lock views, as the ID map names classes: {@code byte[]},
     * {@code com.foo.Blob}, {@code com.foo.Gen/hidden[]} (a hidden class's address suffix made
     * stable). Reads the Class object only; nothing is looked up or loaded.
     */
    public static String typeName(Class<?> type) {
        String name = type.getTypeName();
        int dims = name.indexOf("[]");
        return dims < 0 ? ClassToken.stableName(name) : ClassToken.stableName(name.substring(0, dims)) + name.substring(dims);
    }

    /** The class of an argument value or heap object: the safe direction from an object. */
    public IdMap.ClassEntry classOf(Object value) {
        return register(value.getClass());
    }

    /**
     * The method behind a jmethodID met in a stack walk: from the map, or learned through
     * GetMethodDeclaringClass (inside {@link IdMap#pinned}, so no unload runs meanwhile). Null
     * when the ID's class has unloaded (JVMTI answers INVALID_METHODID).
     *
     * <p>A class's methods join the map as they are met; a walk can meet an ID that
     * GetClassMethods does not list (nor the class's catalog): the old version of a method
     * that was running when its class was retransformed (by tiprobe's own tracing, say) keeps
     * running under an ID of its own. That ID joins the class with its own token, named like the
     * method.
     */
    public IdMap.MethodEntry resolve(long methodId) {
        IdMap.MethodEntry known = map.method(methodId);
        if (known != null) return known;
        return map.pinned(() -> {
            IdMap.MethodEntry again = map.method(methodId);
            if (again != null) return again;
            Class<?> declaring;
            try {
                declaring = jvmti.methodDeclaringClass(methodId);
            } catch (JvmtiException e) {
                if (e.error() == JvmtiError.INVALID_METHODID) return null;
                throw e;
            }
            IdMap.ClassEntry owner = register(declaring);
            IdMap.MethodEntry listed = map.method(methodId);
            if (listed != null || owner == null) return listed;
            MethodToken token = methodToken(owner.token(), methodId);  // JVMTI calls: not under the lock (see register)
            synchronized (this) {
                IdMap.MethodEntry added = map.method(methodId);
                return added != null ? added : map.addMethod(methodId, owner.tag(), token);
            }
        });
    }

    /** Whose work a frame shows, as {@link #nameFrame} tells it. */
    public enum FrameOwner {
        /** The application's (or the JDK's on its behalf). */
        APPLICATION,
        /** tiprobe's own code: a stack with such a frame below a callback's own is tiprobe's work. */
        TIPROBE,
        /** The thread is loading tiprobe: its entry point, or the JDK's call of an attached agent's {@code agentmain}. */
        LOADING_THE_AGENT
    }

    /**
     * Names frame {@code at} of a walk for the recording: its method's token id in {@code ids} and
     * its source line in {@code lines} (0: unknown), and says whose work it shows. A stack with a
     * frame {@link FrameOwner#LOADING_THE_AGENT} is left out by the stack sampler and the callbacks
     * alike (the JDK's reflection around {@code agentmain} runs before tiprobe's first frame; an
     * application's own agents start with {@code premain} at start-up and stay its own).
     */
    public FrameOwner nameFrame(long methodId, long location, int[] ids, int[] lines, int at) {
        IdMap.MethodEntry m = resolve(methodId);
        ids[at] = m == null ? 0 : m.tokenId();
        lines[at] = m == null || location < 0 ? 0 : Math.max(0, m.token().lineAt(location));
        return m == null ? FrameOwner.APPLICATION : frameOwner(m.token());
    }

    /** Whose work a frame of this method shows, as {@link #nameFrame} tells it. */
    public static FrameOwner frameOwner(MethodToken method) {
        String owner = method.owner().binaryName();
        if (owner.equals(AGENT_ENTRY) || owner.equals(AGENT_LOADER) && method.name().equals(ATTACHED_AGENT_CALL)) {
            return FrameOwner.LOADING_THE_AGENT;
        }
        return tiprobes(owner) ? FrameOwner.TIPROBE : FrameOwner.APPLICATION;
    }

    /** Whether a class (by binary name) is tiprobe's own: a wait on its monitor is tiprobe's work, not the program's. */
    public static boolean tiprobes(String binaryName) {
        return binaryName.startsWith(TIPROBE);
    }

    /**
     * The live method a frame names by class, method and descriptor (JFR's stack traces name
     * frames so): among live classes of that binary name, those of the loader given when several
     * loaders define it. Null when no registered class has it (not registered yet, or unloaded
     * since the frame was taken). Nothing is loaded; the class's methods are learned from the VM
     * the first time one of them is asked for.
     */
    public IdMap.MethodEntry methodNamed(String binaryName, LoaderRef loader, String name, String descriptor) {
        List<IdMap.ClassEntry> named = map.classesNamed(ClassToken.stableName(binaryName));
        if (named.size() > 1) {
            List<IdMap.ClassEntry> ofLoader = named.stream().filter(c -> sameLoader(c.token().loader(), loader)).toList();
            if (!ofLoader.isEmpty()) named = ofLoader;
        }
        for (IdMap.ClassEntry c : named) {
            IdMap.MethodEntry m = methodIn(c, name, descriptor);
            if (m != null) return m;
        }
        return null;
    }

    /**
     * The method of a live class by name and descriptor (a frame of Java's {@link StackWalker}
     * names it so), the class registered first if needed; null when the class is not prepared or
     * has no such method.
     */
    public IdMap.MethodEntry methodOf(Class<?> type, String name, String descriptor) {
        IdMap.ClassEntry c = register(type);
        return c == null ? null : methodIn(c, name, descriptor);
    }

    /**
     * {@code c}'s method of that name and descriptor: from the map, or found in the class's
     * catalog and added to the map alone. A class whose frames a sample names keeps a token for
     * each method named, not for each method it has: under class churn, tokens of every method of
     * every sampled class were the largest part of the agent's heap.
     */
    private IdMap.MethodEntry methodIn(IdMap.ClassEntry c, String name, String descriptor) {
        IdMap.MethodEntry m = map.methodNamed(c, name, descriptor);
        if (m != null) return m;
        Catalog catalog = catalog(c);
        long id = catalog == null ? 0 : find(c, catalog, name, descriptor);
        return id == 0 ? null : addNamed(c, id);
    }

    /**
     * A class's methods as GetClassMethods lists them, each with a hash of its name and
     * descriptor: twelve bytes a method. The names themselves, interned, took a megabyte of the
     * application's heap under class churn, and a method is looked up in its catalog only the
     * first time a frame names it.
     */
    private record Catalog(long[] ids, int[] keys) {
        static int key(String name, String descriptor) {
            return name.hashCode() * 31 + descriptor.hashCode();
        }
    }

    /**
     * The ID of {@code c}'s method of that name and descriptor, or 0: the catalog's hashes pick
     * the candidates and JVMTI names them, in a pinned section, as the class may be unloading.
     */
    private long find(IdMap.ClassEntry c, Catalog catalog, String name, String descriptor) {
        int key = Catalog.key(name, descriptor);
        int[] keys = catalog.keys();
        int first = 0;
        while (first < keys.length && keys[first] != key) first++;
        if (first == keys.length) return 0;  // no candidate: no JVMTI call, no pinned section
        int from = first;
        return map.pinned(() -> {
            if (map.classByTag(c.tag()) == null) return 0L;
            for (int i = from; i < keys.length; i++) {
                if (keys[i] != key) continue;
                try {
                    Jvmti.MethodName n = jvmti.methodName(catalog.ids()[i]);
                    if (n.name().equals(name) && n.descriptor().equals(descriptor)) return catalog.ids()[i];
                } catch (RuntimeException e) {
                    // this candidate cannot be named (never seen): the next may be the one
                }
            }
            return 0L;
        });
    }

    /**
     * The catalog of a registered class, listed once (GetClassMethods on the class, held here
     * meanwhile so it cannot unload, then each method's name; nothing is loaded); null when the
     * class is gone. Two threads naming frames of one class at once may both list it; one list is kept.
     */
    private Catalog catalog(IdMap.ClassEntry c) {
        synchronized (this) {
            Catalog known = catalogs.get(c.tag());
            if (known != null) return known;
        }
        return map.pinned(() -> {
            Class<?> type = classOfTag(c.tag());
            if (type == null || map.classByTag(c.tag()) == null) return null;
            // Named before the lock, never under it (see register).
            long[] ids = jvmti.classMethods(type);
            int[] keys = new int[ids.length];
            for (int i = 0; i < ids.length; i++) {
                Jvmti.MethodName n = jvmti.methodName(ids[i]);
                keys[i] = Catalog.key(n.name(), n.descriptor());
            }
            synchronized (this) {
                Catalog known = catalogs.get(c.tag());
                if (known != null) return known;
                Catalog made = new Catalog(ids, keys);
                catalogs.put(c.tag(), made);
                cataloged += ids.length;
                return made;
            }
        });
    }

    /** About how many bytes of the heap the catalogs hold: an ID and a hash a method, and each class's record and two arrays. */
    public synchronized long catalogBytes() {
        return 12 * cataloged + 56L * catalogs.size();
    }

    /** Adds the method {@code id} of the live class {@code c}, found in its catalog; null once the class is gone. */
    private IdMap.MethodEntry addNamed(IdMap.ClassEntry c, long id) {
        return map.pinned(() -> {
            IdMap.MethodEntry known = map.method(id);
            if (known != null && known.classTag() == c.tag()) return known;
            // Checked inside the pinned section: an unload waits for it, so the ID is still the class's.
            if (map.classByTag(c.tag()) == null) return null;
            MethodToken token = methodToken(c.token(), id);  // JVMTI calls: not under the lock (see register)
            synchronized (this) {
                IdMap.MethodEntry added = map.method(id);
                return added != null && added.classTag() == c.tag() ? added : map.addMethod(id, c.tag(), token);
            }
        });
    }

    /** The same loader, as far as a name tells: class and name alike (the ordinal is tiprobe's own). */
    private static boolean sameLoader(LoaderRef a, LoaderRef b) {
        return a.loaderClass().equals(b.loaderClass()) && Objects.equals(a.name(), b.name());
    }

    private static final String TIPROBE = "dev.tiprobe.";
    /** Where the agent's work begins: premain, or agentmain on the Attach Listener. */
    private static final String AGENT_ENTRY = "dev.tiprobe.agent.AgentMain";
    /** Where the JDK calls an attached agent: only tools attach agents, and here that is tiprobe. */
    private static final String AGENT_LOADER = "sun.instrument.InstrumentationImpl";
    private static final String ATTACHED_AGENT_CALL = "loadClassAndCallAgentmain";

    /** The live Class of a tag, or null once it unloaded. */
    public Class<?> classOfTag(long tag) {
        WeakReference<Class<?>> ref = classesByTag.get(tag);
        return ref == null ? null : ref.get();
    }

    /** The class status (prepared, initialized, error) of a live class, from GetClassStatus. */
    public Jvmti.ClassStatus status(IdMap.ClassEntry entry) {
        Class<?> c = classOfTag(entry.tag());
        return c == null ? null : jvmti.classStatus(c);
    }

    /**
     * Resolves a type reference ({@code Lcom/foo/Bar;}) as {@code referrer} sees it, without loading
     * anything: among the classes whose initiating loader is the referrer's loader, then its
     * parents, then the bootstrap loader (the JVM's delegation order). Empty means "not loaded
     * there"; several entries mean several loaders define the name and the answer does not guess.
     *
     * @throws Descriptors.MalformedSignatureException for a malformed descriptor
     */
    public List<IdMap.ClassEntry> resolveTypeReference(Class<?> referrer, String descriptor) {
        String internal = Descriptors.internalName(descriptor);
        if (descriptor.length() == 1) return List.of();  // a primitive: nothing to resolve
        String wanted = internal.startsWith("[") ? Descriptors.fieldType(descriptor) : internal.replace('/', '.');
        for (ClassLoader loader = referrer.getClassLoader(); ; loader = loader.getParent()) {
            List<IdMap.ClassEntry> found = new ArrayList<>();
            for (Class<?> c : jvmti.classLoaderClasses(loader)) {
                if (c.getName().equals(wanted) || c.getTypeName().equals(wanted)) {
                    IdMap.ClassEntry e = register(c);
                    if (e != null && !found.contains(e)) found.add(e);
                }
            }
            if (!found.isEmpty() || loader == null) return found;
        }
    }

    /**
     * Waits until the classes loaded before the start are registered (at most {@code timeout}):
     * for a reader of frames named by class and method ({@link #methodNamed}), which cannot learn
     * a class from a frame as {@link #resolve} does. Returns whether they are.
     */
    public boolean awaitBackfill(Duration timeout) {
        try {
            return backfilled.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Registers, on the calling thread, every class whose ClassPrepare is still queued, and waits
     * (a second at most) for the one the registry thread may be registering. Not to be called
     * where registering could wait on the caller: in a callback, or holding this registry's lock.
     */
    public void sync() {
        for (Class<?> c; (c = prepared.poll()) != null; ) registerQuietly(c);
        // Read after the queue is found empty: a poll that took a class before then had begun by then.
        long begun = registrarPolls.get();
        long patience = System.nanoTime() + SYNC_PATIENCE_NANOS;
        while (registrarPollsDone.get() < begun && System.nanoTime() < patience) LockSupport.parkNanos(SYNC_LOOK_NANOS);
    }

    /** The longest {@link #sync} waits for the registry thread's class: registering one takes microseconds. */
    private static final long SYNC_PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long SYNC_LOOK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private void backfillQuietly() {
        try {
            reconcile();
        } catch (RuntimeException e) {
            registrationFailures.incrementAndGet();  // frames still resolve one class at a time
        }
    }

    /** Registrations from the queue that threw (and were skipped); for reports. */
    public long registrationFailures() {
        return registrationFailures.get();
    }

    /** How long the registry thread sleeps with nothing queued before it looks whether it was closed. */
    private static final long QUIET_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private void registerQueued() {
        while (!closed) {
            registrarPolls.incrementAndGet();  // before the poll: sync waits for what this poll takes
            Class<?> c = null;
            try {
                c = prepared.poll();
                if (c != null) registerQuietly(c);
            } finally {
                registrarPollsDone.incrementAndGet();
            }
            if (c == null) {
                LockSupport.parkNanos(this, QUIET_WAIT_NANOS);  // a ClassPrepare unparks it
                if (Thread.interrupted()) return;
            }
        }
    }

    private void registerQuietly(Class<?> c) {
        try {
            register(c, true);
        } catch (RuntimeException | OutOfMemoryError e) {
            registrationFailures.incrementAndGet();  // e.g. the facade shut down, or a full heap; reconcile() catches up
        }
    }

    /** Stops listening and the registry thread. The map stays readable. */
    @Override
    public void close() {
        closed = true;
        registrations.forEach(Events.Registration::close);
        registrations.clear();
        AgentThreads.end(registrar, 2_000);
        prepared.clear();
        loadedByMachinery.clear();
        untold.clear();
    }

    private void unloaded(long tag) {
        if (mine(tag)) {
            IdMap.ClassEntry gone = map.classByTag(tag);
            ClassListener l = listener;
            if (!untold.remove(tag) && gone != null && l != null) l.changed(false, gone.token());
            map.unloadClass(tag);
            classesByTag.remove(tag);
            synchronized (this) {
                Catalog listed = catalogs.remove(tag);
                if (listed != null) cataloged -= listed.ids().length;
            }
        }
    }

    /** Whether this registry set {@code tag} (0, an earlier registry's tag or another tool's are not). */
    private boolean mine(long tag) {
        return tag >= firstTag && tag < firstTag + (1L << TAG_BITS);
    }

    /** The file the class says it was compiled from, or null (none, or JVMTI cannot tell). */
    private String sourceFileName(Class<?> type) {
        try {
            return jvmti.sourceFileName(type);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private ClassToken classToken(Class<?> type) {
        Module module = type.getModule();
        String moduleName = module.isNamed() ? module.getName() : null;
        String version = module.isNamed() && module.getDescriptor() != null
                ? module.getDescriptor().rawVersion().orElse(null) : null;
        return new ClassToken(ClassToken.stableName(type.getName()), map.loaders().of(type.getClassLoader()), moduleName,
                version, codeSource(type));
    }

    private static String codeSource(Class<?> type) {
        ProtectionDomain pd = type.getProtectionDomain();
        CodeSource cs = pd == null ? null : pd.getCodeSource();
        URL location = cs == null ? null : cs.getLocation();
        return location == null ? null : location.toString();
    }

    private MethodToken methodToken(ClassToken owner, long id) {
        Jvmti.MethodName name = jvmti.methodName(id);
        List<Jvmti.LineNumber> table = jvmti.lineNumberTable(id);
        int[] lines = new int[table.size() * 2];
        int n = 0;
        for (Jvmti.LineNumber entry : table) {
            // A class file's table holds two-byte values; anything else (never seen) is left out, not fatal.
            if (!MethodToken.fitsLineTable(entry.startLocation()) || !MethodToken.fitsLineTable(entry.line())) continue;
            lines[n++] = (int) entry.startLocation();
            lines[n++] = entry.line();
        }
        if (n < lines.length) lines = java.util.Arrays.copyOf(lines, n);
        return new MethodToken(owner, name.name(), name.descriptor(), name.generic(), jvmti.methodModifiers(id), lines);
    }
}
