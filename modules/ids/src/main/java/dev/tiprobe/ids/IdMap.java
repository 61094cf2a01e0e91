package dev.tiprobe.ids;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * Run-time IDs mapped to metadata tokens: class tags to class tokens, jmethodIDs to method tokens,
 * and back. Pure Java: whoever feeds it (the agent's registry) talks to JVMTI.
 *
 * <h2>Generations (ABA)</h2>
 * Every unload starts a new generation, and every entry remembers the generation it was added
 * in. A jmethodID can be handed out again after its class unloads (JDK 25 and earlier reuse the
 * slots of freed method blocks); whoever kept an ID keeps its generation too, and
 * {@link #method(long, int)} answers only while the entry is the one that ID meant. Better still,
 * recorders keep the method's token int, which stays valid after the unload until the map is
 * asked to retire the tokens of classes unloaded before some moment ({@link #retireUnloaded}).
 *
 * <h2>The unload protocol</h2>
 * One thread must never pass an ID to JVMTI while another processes that ID's unload: the JVM may
 * have freed what the ID points to. Code that takes an ID from this map, or from a stack walk, and
 * hands it to JVMTI does so inside {@link #pinned(Supplier)}; {@link #unloadClass(long)} waits for
 * every pinned section to finish before it removes the class's IDs, and a pinned section that
 * starts later no longer finds them. Sections nest (the lock is reentrant). Lookups ({@link #method(long)}, {@link #classByTag(long)}) need
 * no pinning: they never touch the VM.
 */
public final class IdMap {
    /** A live class: its tag (tiprobe's own ID for the Class object), token int and token. */
    public record ClassEntry(long tag, int tokenId, ClassToken token, int generation) {}

    /** A live method: its jmethodID, its class's tag, token int and token. */
    public record MethodEntry(long methodId, long classTag, int tokenId, MethodToken token, int generation) {}

    /** What an ID answers: a live entry, or why there is none. */
    public enum Status { LIVE, UNLOADED, UNKNOWN }

    private final LongMap<ClassEntry> classes = new LongMap<>();
    private final LongMap<MethodEntry> methods = new LongMap<>();
    private final LongMap<long[]> methodsOfClass = new LongMap<>();
    private final TokenTable<ClassToken> classTokens = new TokenTable<>();
    private final TokenTable<MethodToken> methodTokens = new TokenTable<>();
    /** Live classes by binary name: the reverse direction (live methods by token are found through these). */
    private final OneOrMany<String, ClassEntry> liveByName = new OneOrMany<>();
    /** Tags are handed out in increasing order, so a lower tag that is not live has unloaded. */
    private volatile long highestTag;
    /** Reentrant, so pinned sections may nest (a stack walk that resolves a frame). */
    private final ReentrantReadWriteLock unloads = new ReentrantReadWriteLock();
    private volatile int generation = 1;
    /** Source file names by class token, where the class names one: metadata, not part of a token's identity. */
    private final Map<ClassToken, String> sourceFiles = new ConcurrentHashMap<>();
    private long unloadedClasses;
    private final Loaders loaders = new Loaders();

    /** An empty map. */
    public IdMap() {
        // Filled by whoever watches the VM: backfill, ClassPrepare, stack walks.
    }

    /** How the class tokens of this map name class loaders: everyone who makes tokens for it asks here. */
    public Loaders loaders() {
        return loaders;
    }

    // ---------------------------------------------------------------- adding

    /**
     * Adds a class under {@code tag} (replacing what the tag held); returns its entry. Tags are
     * tiprobe's own, handed out in increasing order and never reused.
     */
    public synchronized ClassEntry addClass(long tag, ClassToken token) {
        ClassEntry entry = new ClassEntry(tag, classTokens.intern(token), token, generation);
        ClassEntry old = classes.put(tag, entry);
        if (old != null) dropFromNames(old);
        liveByName.add(token.binaryName(), entry);
        if (tag > highestTag) highestTag = tag;
        return entry;
    }

    /**
     * Adds a method of the class tagged {@code classTag}; returns its entry.
     *
     * @throws IllegalStateException if that class is not in the map
     */
    public synchronized MethodEntry addMethod(long methodId, long classTag, MethodToken token) {
        if (classes.get(classTag) == null) throw new IllegalStateException("no class with tag " + classTag);
        MethodEntry entry = new MethodEntry(methodId, classTag, methodTokens.intern(token), token, generation);
        methods.put(methodId, entry);
        long[] known = methodsOfClass.get(classTag);
        long[] grown = known == null ? new long[1] : java.util.Arrays.copyOf(known, known.length + 1);
        grown[grown.length - 1] = methodId;
        methodsOfClass.put(classTag, grown);
        return entry;
    }

    // ---------------------------------------------------------------- unloading

    /**
     * Forgets a class that unloaded, and every method it had, in a new generation. Waits for
     * pinned sections to finish first. The tokens stay readable through their ints until
     * {@link #retireUnloaded} retires them.
     *
     * @return the number of methods that went with it, or -1 if the tag was unknown
     */
    public int unloadClass(long tag) {
        unloads.writeLock().lock();
        try {
            synchronized (this) {
                ClassEntry c = classes.remove(tag);
                if (c == null) return -1;
                generation++;
                unloadedClasses++;
                dropFromNames(c);
                long[] ids = methodsOfClass.remove(tag);
                int removed = 0;
                int[] tokens = new int[ids == null ? 0 : ids.length];
                for (long id : ids == null ? new long[0] : ids) {
                    MethodEntry m = methods.get(id);
                    // The ID may already have been reused by a newer class: leave that one alone.
                    if (m != null && m.classTag() == tag) {
                        methods.remove(id);
                        tokens[removed++] = m.tokenId();
                    }
                }
                retiring.add(new Retiring(System.nanoTime(), c.tokenId(), java.util.Arrays.copyOf(tokens, removed)));
                return removed;
            }
        } finally {
            unloads.writeLock().unlock();
        }
    }

    /**
     * Tokens to retire from {@code atNanos} ({@link System#nanoTime()}) on, for {@link #retireUnloaded}:
     * a class that unloaded and its methods, or a batch of method tokens given to {@link #retireLater}
     * ({@code classTokenId} 0) from {@code firstNanos} on, whose time is that of its newest token,
     * so none retires early.
     */
    private static final class Retiring {
        long atNanos;
        final long firstNanos;
        final int classTokenId;
        int[] methodTokenIds;
        int size;

        Retiring(long atNanos, int classTokenId, int[] methodTokenIds) {
            this.atNanos = atNanos;
            this.firstNanos = atNanos;
            this.classTokenId = classTokenId;
            this.methodTokenIds = methodTokenIds;
            this.size = methodTokenIds.length;
        }
    }

    /** How long {@link #namedAgain} keeps a naming whose token no retirement met (a live class's, say). */
    private static final long NAMED_AGAIN_KEPT_NANOS = 60_000_000_000L;

    /** How long a batch of {@link #retireLater} tokens gathers: one entry per token was 50k entries under churn. */
    private static final long BATCH_NANOS = 100_000_000L;

    /** Unloaded classes' tokens, oldest first, and tokens given to {@link #retireLater}. Guarded by this. */
    private final java.util.ArrayDeque<Retiring> retiring = new java.util.ArrayDeque<>();

    /**
     * Marks a method token that no live class holds (a frame named after its class unloaded, a
     * traced method's last figures) to be retired as the classes unloading now are, once
     * {@link #retireUnloaded} is asked for a moment after now.
     */
    public synchronized void retireLater(int methodTokenId) {
        long now = System.nanoTime();
        Retiring last = retiring.peekLast();
        if (last == null || last.classTokenId != 0 || now - last.firstNanos > BATCH_NANOS) {
            last = new Retiring(now, 0, new int[8]);
            last.size = 0;
            retiring.add(last);
        }
        if (last.size == last.methodTokenIds.length) last.methodTokenIds = java.util.Arrays.copyOf(last.methodTokenIds, last.size * 2);
        last.methodTokenIds[last.size++] = methodTokenId;
        last.atNanos = now;
    }

    /**
     * Forgets the tokens of classes that unloaded before {@code beforeNanos} (by
     * {@link System#nanoTime()}), with their names and source files, unless a live class holds
     * an equal token again: what keeps a JVM that makes and drops classes all day from growing
     * the map without end. Their ints then answer null: call it once everything that could still
     * name them (a recording's events of that moment) has been written. Returns how many retired.
     */
    public int retireUnloaded(long beforeNanos) {
        return retireUnloaded(beforeNanos, id -> false);
    }

    /**
     * As {@link #retireUnloaded(long)}, but for the method tokens {@code stillNamed} says something
     * goes on naming (a traced method's figures written under that int): those stay, and are
     * retired once given to {@link #retireLater} again.
     */
    public synchronized int retireUnloaded(long beforeNanos, java.util.function.IntPredicate stillNamed) {
        int n = 0;
        java.util.List<Integer> again = new java.util.ArrayList<>();
        for (Retiring r; (r = retiring.peek()) != null && r.atNanos - beforeNanos < 0; ) {
            retiring.poll();
            for (int i = 0; i < r.size; i++) {
                int id = r.methodTokenIds[i];
                MethodToken token = methodTokens.get(id);
                if (token == null || !liveMethodsFor(token).isEmpty() || stillNamed.test(id)) continue;
                Long named = namedAgain.remove(id);
                if (named != null && named - beforeNanos >= 0) {
                    again.add(id);  // named since it began to wait: it waits again, from now
                    continue;
                }
                methodTokens.retire(id);
                n++;
            }
            ClassToken cls = classTokens.get(r.classTokenId);
            if (cls != null && classFor(cls) == null) {
                classTokens.retire(r.classTokenId);
                sourceFiles.remove(cls);
                n++;
            }
        }
        for (int id : again) retireLater(id);
        namedAgain.values().removeIf(t -> beforeNanos - t > NAMED_AGAIN_KEPT_NANOS);  // of tokens that never waited
        return n;
    }

    private void dropFromNames(ClassEntry c) {
        liveByName.remove(c.token().binaryName(), c);
    }

    /**
     * Runs {@code work}, which may pass IDs from this map to JVMTI, with unloads held off; see the
     * class comment. Sections may run concurrently with each other; keep them short.
     */
    public <T> T pinned(Supplier<T> work) {
        unloads.readLock().lock();
        try {
            return work.get();
        } finally {
            unloads.readLock().unlock();
        }
    }

    // ---------------------------------------------------------------- lookups (lock-free)

    /** The live method with this jmethodID, or null. */
    public MethodEntry method(long methodId) {
        return methods.get(methodId);
    }

    /** The method only if it is still the one added in {@code generation}: ID reuse answers null. */
    public MethodEntry method(long methodId, int generation) {
        MethodEntry m = methods.get(methodId);
        return m != null && m.generation() == generation ? m : null;
    }

    /** The live class with this tag, or null. */
    public ClassEntry classByTag(long tag) {
        return classes.get(tag);
    }

    /** LIVE, UNLOADED (tiprobe saw it go) or UNKNOWN, for a class tag. */
    public Status classStatus(long tag) {
        if (classes.get(tag) != null) return Status.LIVE;
        return tag > 0 && tag <= highestTag ? Status.UNLOADED : Status.UNKNOWN;
    }

    /**
     * Interns a method token met before its class has run-time IDs (an enter probe is given one
     * while its class file is transformed); the same int comes back when the method's jmethodID
     * is added later.
     */
    public int internMethodToken(MethodToken token) {
        return methodTokens.intern(token);
    }

    /**
     * As {@link #internMethodToken}, for a token no live class holds (a frame named after its
     * class unloaded): a token interned now is retired as those given to {@link #retireLater} now are.
     */
    public synchronized int internTransient(MethodToken token) {
        int known = methodTokens.find(token);
        if (known != 0) {
            namedAgain.put(known, System.nanoTime());  // not retired by an entry older than this naming
            return known;
        }
        int id = methodTokens.intern(token);
        retireLater(id);
        return id;
    }

    /**
     * Tokens of unloaded classes named again by {@link #internTransient} since they began to wait
     * for retirement, with when: the entry they wait in is older than that naming, and the event
     * that named them may not be written yet. {@link #retireUnloaded} gives them a new entry.
     * Guarded by this.
     */
    private final java.util.Map<Integer, Long> namedAgain = new java.util.HashMap<>();

    /** The method token behind an int, also after its class unloaded until it is retired; null for an int never handed out. */
    public MethodToken methodToken(int tokenId) {
        return methodTokens.get(tokenId);
    }

    /** The class token behind an int, also after its class unloaded until it is retired. */
    public ClassToken classToken(int tokenId) {
        return classTokens.get(tokenId);
    }

    /**
     * The human name of a method token ({@link HumanNames#method}), or null for an int retired or
     * never handed out. Built when asked, never kept: names are resolved late, and a recording
     * asks once per token (its first event naming it); kept, they took more of the heap than the
     * tokens themselves under class churn.
     */
    public String humanName(int methodTokenId) {
        MethodToken token = methodTokens.get(methodTokenId);
        return token == null ? null : HumanNames.method(token);
    }

    /** Records the source file a class names ({@code Bar.java}, its SourceFile attribute); null is ignored. */
    public void sourceFile(ClassToken cls, String fileName) {
        if (fileName != null && !fileName.isEmpty()) sourceFiles.putIfAbsent(cls, fileName.intern());  // one copy for a file's classes
    }

    /**
     * Where a method's source is, as a path from its package root ({@code org/foo/Bar.java}: the
     * class's package and the file its class names), or null when its class named none.
     */
    public String sourcePath(int methodTokenId) {
        MethodToken token = methodTokens.get(methodTokenId);
        if (token == null) return null;
        String file = sourceFiles.get(token.owner());
        if (file == null) return null;
        String binary = token.owner().binaryName();
        int dot = binary.lastIndexOf('.');
        return dot < 0 ? file : binary.substring(0, dot).replace('.', '/') + "/" + file;
    }

    /** The current generation: it grows with every unload. */
    public int generation() {
        return generation;
    }

    // ---------------------------------------------------------------- reverse (token to ID)

    /**
     * The live classes with this binary name, in any loader: empty means "not loaded", which is a
     * normal answer; more than one means several loaders define the name. Never loads anything.
     */
    public synchronized List<ClassEntry> classesNamed(String binaryName) {
        return liveByName.get(binaryName);
    }

    /** The live class with exactly this token, or null when it is not loaded. */
    public synchronized ClassEntry classFor(ClassToken token) {
        for (ClassEntry e : liveByName.get(token.binaryName())) {
            if (e.token().equals(token)) return e;
        }
        return null;
    }

    /**
     * The method of a live class with this name and descriptor, or null: a frame as another source
     * names it (a JFR stack trace), by name rather than by run-time ID. Never loads anything.
     */
    public synchronized MethodEntry methodNamed(ClassEntry owner, String name, String descriptor) {
        long[] ids = methodsOfClass.get(owner.tag());
        if (ids == null) return null;
        for (long id : ids) {
            MethodEntry m = methods.get(id);
            if (m != null && m.token().name().equals(name) && m.token().descriptor().equals(descriptor)) return m;
        }
        return null;
    }

    /** The live methods with this token (normally one), or an empty list when not loaded. */
    public synchronized List<MethodEntry> methodsFor(MethodToken token) {
        return liveMethodsFor(token);
    }

    /**
     * Found through the live classes of the token's class name and their methods, not a table of
     * its own: a reverse table took a hash entry per live method, and is asked only when tokens
     * retire and when sampling recompiles.
     */
    private List<MethodEntry> liveMethodsFor(MethodToken token) {
        List<MethodEntry> found = List.of();
        for (ClassEntry c : liveByName.get(token.owner().binaryName())) {
            if (!c.token().equals(token.owner())) continue;
            long[] ids = methodsOfClass.get(c.tag());
            for (long id : ids == null ? new long[0] : ids) {
                MethodEntry m = methods.get(id);
                if (m != null && m.classTag() == c.tag() && m.token().equals(token)) {
                    if (found.isEmpty()) found = new java.util.ArrayList<>(1);
                    found.add(m);
                }
            }
        }
        return found;
    }

    // ---------------------------------------------------------------- size

    /** Counts, for memory bounds and reports. */
    public record Counts(int liveClasses, int liveMethods, int classTokens, int methodTokens, long unloadedClasses,
                         int slots) {}

    /**
     * About how many bytes of the heap the map holds, from its counts: a class token with its
     * name {@value #CLASS_TOKEN_BYTES}, a live class's entries {@value #CLASS_ENTRY_BYTES}, a
     * method token with its line table {@value #METHOD_TOKEN_BYTES}, a live method's entries
     * {@value #METHOD_ENTRY_BYTES}, a hash slot {@value #SLOT_BYTES}. Measured on JDK 25 (compressed
     * references) with tens of thousands of generated classes ({@code IdMapTest} holds the sum to
     * within a quarter of what the heap grew by); names shared by many tokens are interned and
     * counted once per token all the same, so a map of many equal names comes out high.
     */
    public long estimatedBytes() {
        Counts c = counts();
        return CLASS_TOKEN_BYTES * c.classTokens() + CLASS_ENTRY_BYTES * c.liveClasses() + METHOD_TOKEN_BYTES * c.methodTokens()
                + METHOD_ENTRY_BYTES * c.liveMethods() + SLOT_BYTES * c.slots();
    }

    static final long CLASS_TOKEN_BYTES = 200;
    static final long CLASS_ENTRY_BYTES = 100;
    static final long METHOD_TOKEN_BYTES = 120;
    static final long METHOD_ENTRY_BYTES = 70;
    static final long SLOT_BYTES = 12;

    public synchronized Counts counts() {
        return new Counts(classes.size(), methods.size(), classTokens.size(), methodTokens.size(), unloadedClasses,
                classes.capacity() + methods.capacity() + methodsOfClass.capacity());
    }
}
