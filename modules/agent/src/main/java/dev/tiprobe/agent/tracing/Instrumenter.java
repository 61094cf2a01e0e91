package dev.tiprobe.agent.tracing;

import dev.tiprobe.filter.MethodFilter;
import dev.tiprobe.ids.Descriptors;
import dev.tiprobe.filter.Untraceable;
import dev.tiprobe.options.AgentOptions.TraceMode;
import dev.tiprobe.probe.Call;
import dev.tiprobe.probe.Probe;
import dev.tiprobe.recording.Skipped;

import java.lang.classfile.Annotation;
import java.lang.classfile.Attributes;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassFileVersion;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.CodeElement;
import java.lang.classfile.CodeTransform;
import java.lang.classfile.Label;
import java.lang.classfile.MethodModel;
import java.lang.classfile.MethodTransform;
import java.lang.classfile.Opcode;
import java.lang.classfile.TypeKind;
import java.lang.classfile.attribute.RuntimeInvisibleAnnotationsAttribute;
import java.lang.classfile.attribute.RuntimeVisibleAnnotationsAttribute;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.instruction.DiscontinuedInstruction;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.classfile.instruction.NewObjectInstruction;
import java.lang.classfile.instruction.ReturnInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.lang.reflect.AccessFlag;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Injects enter probes into class files with the JDK's java.lang.classfile API. Pure: bytes in,
 * bytes out, plus the slots it handed out and the methods it skipped with their reasons; JVMTI and
 * the session live elsewhere.
 *
 * <p>Stack maps are recomputed, which needs the class hierarchy of types that meet at branch
 * joins, and every changed class is verified before the JVM sees it, which needs the hierarchy of
 * the types it passes around. Both are answered without loading a class: from class files (the
 * loader's resources and the JDK's), then from the classes already loaded by the loader and its
 * parents (a generated class has no class file: a proxy, a Groovy closure, a Byte Buddy type).
 * A type that is neither (a Groovy script's closure class, defined only after the script) may still
 * leave verification unable to finish a method; the changed class is then accepted only when the
 * original, checked with the same knowledge, stops at the same unknown types, so what cannot be
 * checked is the original's code, not the probes. A class whose stack maps cannot be computed is
 * left unchanged, with the reason reported.
 */
final class Instrumenter {
    /** Methods longer than this are left alone: the probes must not push them over 64 KiB. */
    static final int MAX_CODE_LENGTH = 60_000;

    /** Where instrumented methods get their slots, and learn their names. */
    interface Slots {
        /** The slots of one class file's methods, asked for once per transform. */
        ClassSlots forClass(String binaryName, ClassLoader loader, String codeSource, byte[] classFile);
    }

    /** Slots of one class file's methods, used by one thread. */
    interface ClassSlots {
        int slotFor(MethodModel method);

        /** The callees of the timed call sites of {@code slot}'s body, by site index (human names); called after each transform that timed them. */
        default void callSites(int slot, List<String> callees) {}
    }

    /**
     * Classes already loaded whose initiating loader is {@code loader} (null: the bootstrap
     * loader), e.g. JVMTI's GetClassLoaderClasses; never loads a class.
     */
    interface LoadedClasses {
        Class<?>[] initiatedBy(ClassLoader loader);

        /** Whether {@code loader} may have initiated the class {@code name} (a binary name): false lets it be passed by unlisted. */
        default boolean mayHave(ClassLoader loader, String name) {
            return true;
        }

        LoadedClasses NONE = loader -> new Class<?>[0];
    }

    /** What one transform did: new bytes (null if unchanged) and the methods skipped. */
    record Result(byte[] bytes, int instrumented, List<Skipped> skipped) {}

    private static final ClassDesc PROBE = Probe.class.describeConstable().orElseThrow();
    private static final ClassDesc CALL = Call.class.describeConstable().orElseThrow();
    private static final ClassDesc THROWABLE = ConstantDescs.CD_Throwable;
    private static final MethodTypeDesc COUNT = MethodTypeDesc.of(ConstantDescs.CD_void, ConstantDescs.CD_int);
    private static final MethodTypeDesc ENTER = MethodTypeDesc.of(ConstantDescs.CD_long, ConstantDescs.CD_int);
    private static final MethodTypeDesc EXIT = MethodTypeDesc.of(ConstantDescs.CD_void, ConstantDescs.CD_int, ConstantDescs.CD_long);
    private static final MethodTypeDesc TRACE_ENTER = MethodTypeDesc.of(CALL, ConstantDescs.CD_int);
    private static final MethodTypeDesc TRACE_THROW = MethodTypeDesc.of(ConstantDescs.CD_void, THROWABLE, CALL);
    private static final MethodTypeDesc SITE_ENTER = MethodTypeDesc.of(ConstantDescs.CD_void, CALL, ConstantDescs.CD_int);
    private static final MethodTypeDesc SITE_EXIT = MethodTypeDesc.of(ConstantDescs.CD_void, CALL);

    private final MethodFilter filter;
    private final TraceMode mode;
    private final Slots slots;
    private final LoadedClasses loaded;
    /** Trace mode: also time each call site of the body (one level of callees, a watch's call tree). */
    private final boolean timeCallSites;
    /**
     * Methods whose probes came out (binary name, '.', name, descriptor), by the loader of their
     * class: no longer instrumented. Held weakly by loader, so what a loader's classes had taken
     * out goes with them; a class its name defined again by a new loader starts with its probes.
     * Guarded by itself.
     */
    private final Map<ClassLoader, Set<String>> removed = new java.util.WeakHashMap<>();
    /** The same for the bootstrap loader's classes (a null key has no weak reference). Guarded by {@link #removed}. */
    private final Set<String> removedFromBoot = java.util.concurrent.ConcurrentHashMap.newKeySet();

    Instrumenter(MethodFilter filter, TraceMode mode, Slots slots, LoadedClasses loaded) {
        this(filter, mode, slots, loaded, false);
    }

    /** @param timeCallSites trace mode only: each call also times the call sites of the method's body */
    Instrumenter(MethodFilter filter, TraceMode mode, Slots slots, LoadedClasses loaded, boolean timeCallSites) {
        if (timeCallSites && mode != TraceMode.TRACE) throw new IllegalArgumentException("call sites are timed in trace mode only");
        this.filter = filter;
        this.mode = mode;
        this.slots = slots;
        this.loaded = loaded;
        this.timeCallSites = timeCallSites;
    }

    /** From now on, transforms leave this method without probes (the overhead budget took them out). */
    void remove(ClassLoader loader, String binaryName, String method, String descriptor) {
        synchronized (removed) {
            (loader == null ? removedFromBoot : removed.computeIfAbsent(loader, l -> java.util.concurrent.ConcurrentHashMap.newKeySet()))
                    .add(methodKey(binaryName, method, descriptor));
        }
    }

    /** The methods whose probes came out among {@code loader}'s classes (a concurrent set). */
    private Set<String> removedFrom(ClassLoader loader) {
        if (loader == null) return removedFromBoot;
        synchronized (removed) {
            Set<String> keys = removed.get(loader);
            return keys == null ? Set.of() : keys;
        }
    }

    private static String methodKey(String binaryName, String method, String descriptor) {
        return binaryName + '.' + method + descriptor;
    }

    /**
     * Whether the class file refers to the probe class: only injected code does, so it is
     * instrumented already. While a session started in premain moves from java.lang.instrument to
     * its own JVMTI hook, both see each class that loads, and the second must leave it alone.
     */
    static boolean callsTheProbe(ClassModel model) {
        for (PoolEntry e : model.constantPool()) {
            if (e instanceof ClassEntry c && c.asInternalName().equals(PROBE_INTERNAL_NAME)) return true;
        }
        return false;
    }

    private static final String PROBE_INTERNAL_NAME = Probe.class.getName().replace('.', '/');

    /**
     * Cheap pre-check on the name alone: could the filter choose any method of this class? Never
     * for the classes the probe runs on ({@link Untraceable}).
     */
    boolean mayInstrument(String internalName) {
        return internalName != null && filter.mayMatchClass(internalName.replace('/', '.'))
                && Untraceable.whyNotClass(internalName, filter) == null;
    }

    /**
     * Transforms one class file.
     *
     * @param loader     the defining loader (null for the bootstrap loader), used to read class
     *                   files of types the stack maps need
     * @param codeSource where the class came from (a jar or directory URL), or null
     * @param jvmVerifies whether the JVM verifies the result itself and refuses it whole if it
     *                   fails (a retransformed class of any loader but the bootstrap one): then
     *                   the result is not verified here, which would take more than half the time
     * @return the new class file, or null bytes when nothing was chosen, or when the class file
     *         already calls the probe (another route of the same session instrumented it first)
     */
    Result transform(ClassLoader loader, String codeSource, byte[] classFile, boolean jvmVerifies) {
        ClassModel model = ClassFile.of().parse(classFile);
        if (callsTheProbe(model)) return new Result(null, 0, List.of());
        String binaryName = model.thisClass().asInternalName().replace('/', '.');
        Set<String> classAnnotations = annotations(model.findAttribute(Attributes.runtimeVisibleAnnotations()).orElse(null),
                model.findAttribute(Attributes.runtimeInvisibleAnnotations()).orElse(null));
        List<Skipped> skipped = new java.util.ArrayList<>();
        Map<MethodModel, Integer> chosen = new HashMap<>();
        boolean javaLang = Untraceable.javaLang(model.thisClass().asInternalName());
        Set<String> removedHere = removedFrom(loader);
        ClassSlots classSlots = null;
        for (MethodModel m : model.methods()) {
            String name = m.methodName().stringValue();
            String desc = m.methodType().stringValue();
            Set<String> methodAnnotations = annotations(m.findAttribute(Attributes.runtimeVisibleAnnotations()).orElse(null),
                    m.findAttribute(Attributes.runtimeInvisibleAnnotations()).orElse(null));
            if (javaLang ? !filter.matchesWhereNamed(binaryName, name, desc)
                    : !filter.matches(binaryName, classAnnotations, name, desc, methodAnnotations)) continue;
            if (!removedHere.isEmpty() && removedHere.contains(methodKey(binaryName, name, desc))) continue;
            String reason = Untraceable.whyNotMethod(model.thisClass().asInternalName(), name);
            if (reason == null) reason = unsupported(m);
            if (reason != null) {
                skipped.add(new Skipped(binaryName, name, desc, reason));
                continue;
            }
            if (classSlots == null) classSlots = slots.forClass(binaryName, loader, codeSource, classFile);
            chosen.put(m, classSlots.slotFor(m));
        }
        if (chosen.isEmpty()) return new Result(null, 0, skipped);
        // Changed where the JVM does not check the change itself, a class file without stack maps
        // becomes one with them, which tiprobe can check.
        boolean withStackMaps = !jvmVerifies && model.majorVersion() < STACK_MAPS_SINCE;
        if (withStackMaps) refuseWithoutStackMaps(model);
        ClassFile cf = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(
                resolver(loader, model, loaded, NestFiles.onDisk(codeSource))),
                withStackMaps ? ClassFile.StackMapsOption.GENERATE_STACK_MAPS : ClassFile.StackMapsOption.STACK_MAPS_WHEN_REQUIRED);
        Map<Integer, List<String>> sitesBySlot = new HashMap<>();
        ClassTransform transform = (builder, element) -> {
            if (element instanceof MethodModel m && chosen.containsKey(m)) {
                Injector injector = new Injector(m, chosen.get(m), model);
                builder.transformMethod(m, MethodTransform.transformingCode(injector));
                if (injector.sites != null) sitesBySlot.put(injector.slot, injector.sites);
            } else if (withStackMaps && element instanceof ClassFileVersion) {
                builder.withVersion(STACK_MAPS_ONLY_SINCE, 0);
            } else if (withStackMaps && element instanceof MethodModel m && m.code().isPresent()) {
                builder.transformMethod(m, MethodTransform.transformingCode(CodeTransform.ACCEPT_ALL));  // written again, with stack maps
            } else {
                builder.with(element);
            }
        };
        byte[] out = cf.transformClass(model, transform);
        // A class the JVM would reject at its load must never reach it: that would change the program.
        List<String> errors = jvmVerifies ? List.of() : cf.verify(out).stream().map(Throwable::getMessage).toList();
        if (!errors.isEmpty() && !onlyTypesTheOriginalLacks(errors, cf.verify(classFile))) {
            throw new IllegalStateException("instrumented code does not verify: " + errors.getFirst());
        }
        for (Map.Entry<Integer, List<String>> e : sitesBySlot.entrySet()) classSlots.callSites(e.getKey(), List.copyOf(e.getValue()));
        return new Result(out, chosen.size(), skipped);
    }

    private static final String UNRESOLVED = "Could not resolve class ";

    /**
     * The first class file version with stack maps (Java 6). The JDK's verifier, which checks a
     * class tiprobe changes where the JVM does not check the change itself (as it loads), checks no
     * older one: the JVM verifies those by type inference, which only it does.
     */
    static final int STACK_MAPS_SINCE = 50;

    /**
     * The version an older class file is written as, when it is changed where tiprobe checks the
     * change: the first checked by its stack maps alone, with no fallback to inference (which
     * would hide the errors of a check, as the JDK's verifier then reports only that it cannot
     * infer). Java 5 class files only: the JVM reads 45 to 48 more leniently, and a method with
     * subroutines ({@code jsr}) cannot be described by stack maps.
     */
    static final int STACK_MAPS_ONLY_SINCE = 51;

    /** The oldest class file version written again with stack maps: Java 5's. */
    static final int REWRITTEN_FROM = 49;

    /** What a class without stack maps that cannot be given them means for its tracing. */
    private static final String UNCHECKABLE = "tiprobe cannot check changes to its class as it loads (attached, the JVM checks them itself)";

    /** Throws, saying why, where {@code model}, without stack maps, cannot be given them to be checked. */
    private static void refuseWithoutStackMaps(ClassModel model) {
        if (model.majorVersion() < REWRITTEN_FROM) {
            throw new IllegalStateException("its class file is version " + model.majorVersion() + " (Java 1." + (model.majorVersion() - 44)
                    + "), older than Java 5: " + UNCHECKABLE);
        }
        for (MethodModel m : model.methods()) {
            boolean subroutines = m.code().map(code -> code.elementStream().anyMatch(e -> e instanceof DiscontinuedInstruction)).orElse(false);
            if (subroutines) {
                throw new IllegalStateException(m.methodName().stringValue() + " has subroutines (jsr, from compilers before Java 6): " + UNCHECKABLE);
            }
        }
    }

    /**
     * Whether every verification error of the changed class is a type nobody can describe yet
     * (not loaded, no class file) that also stops the verification of the original: the probes
     * add no type of their own, so such an error says nothing about them.
     */
    static boolean onlyTypesTheOriginalLacks(List<String> errors, List<VerifyError> original) {
        Set<String> lacking = new HashSet<>();
        for (VerifyError e : original) {
            String m = e.getMessage();
            int at = m == null ? -1 : m.indexOf(UNRESOLVED);
            if (at >= 0) lacking.add(m.substring(at));
        }
        for (String m : errors) {
            int at = m == null ? -1 : m.indexOf(UNRESOLVED);
            if (at < 0 || !lacking.contains(m.substring(at))) return false;
        }
        return true;
    }

    private static String unsupported(MethodModel m) {
        if (m.flags().has(AccessFlag.ABSTRACT)) return "abstract: no code";
        if (m.flags().has(AccessFlag.NATIVE)) return "native: no bytecode";
        if (m.flags().has(AccessFlag.BRIDGE)) return "bridge: calls the method it bridges, which is counted";
        int length = m.code().map(c -> c.findAttribute(Attributes.code()).map(a -> a.codeLength()).orElse(0)).orElse(0);
        if (length > MAX_CODE_LENGTH) return "code of " + length + " bytes: too near the 64 KiB limit";
        return null;
    }

    private static Set<String> annotations(RuntimeVisibleAnnotationsAttribute visible,
                                           RuntimeInvisibleAnnotationsAttribute invisible) {
        if (visible == null && invisible == null) return Set.of();
        Set<String> out = new HashSet<>();
        if (visible != null) for (Annotation a : visible.annotations()) out.add(a.className().stringValue());
        if (invisible != null) for (Annotation a : invisible.annotations()) out.add(a.className().stringValue());
        return out;
    }

    /**
     * Class hierarchy for stack maps and verification, never loading a class: the class being
     * transformed, the probe's classes, the defining loader's resources, the JDK's, then the
     * classes already loaded by that loader and its parents.
     *
     * <p>The loader's resources are not asked for a class of the transformed class's own nest when
     * that class came from a file that does not exist ({@code nestOnDisk} false: a Groovy script):
     * its nestmates were made in memory with it and have no class file either. Such a look-up
     * would find nothing, and each of the JDK's loaders from this one up to the bootstrap one
     * would keep the name as a miss in its resource cache, held until the heap runs short (a soft
     * reference): under script churn, a name per script in each of three loaders.
     */
    private static ClassHierarchyResolver resolver(ClassLoader loader, ClassModel self, LoadedClasses loaded,
                                                   boolean nestOnDisk) {
        ClassDesc selfDesc = self.thisClass().asSymbol();
        ClassHierarchyResolver own = desc -> {
            if (desc.equals(selfDesc)) {
                if (self.flags().has(AccessFlag.INTERFACE)) return ClassHierarchyResolver.ClassHierarchyInfo.ofInterface();
                return ClassHierarchyResolver.ClassHierarchyInfo.ofClass(
                        self.superclass().map(c -> c.asSymbol()).orElse(null));
            }
            if (desc.equals(CALL) || desc.equals(PROBE)) {
                return ClassHierarchyResolver.ClassHierarchyInfo.ofClass(ConstantDescs.CD_Object);
            }
            return null;
        };
        // Never the JDK's default resolver: it falls back to loading the class (Class.forName).
        ClassHierarchyResolver jdkFirst = own.orElse(JdkClassFiles.RESOLVER);
        if (loader != null) {
            ClassHierarchyResolver resources = ClassHierarchyResolver.ofResourceParsing(loader);
            String top = NestFiles.topLevel(self.thisClass().asInternalName());
            jdkFirst = jdkFirst.orElse(nestOnDisk ? resources : desc ->
                    desc.isClassOrInterface() && NestFiles.topLevel(internalName(desc)).equals(top) ? null : resources.getClassInfo(desc));
        }
        return jdkFirst.orElse(alreadyLoaded(loader, loaded));
    }

    /**
     * The hierarchy of a class already loaded, found among the classes each loader from
     * {@code loader} up to the bootstrap one has initiated (the JVM's delegation order); each
     * loader's list is asked for once per transform. Class.getSuperclass of a loaded class loads
     * nothing: the JVM linked it when the class loaded.
     */
    private static ClassHierarchyResolver alreadyLoaded(ClassLoader loader, LoadedClasses loaded) {
        Map<ClassLoader, Class<?>[]> lists = new HashMap<>();
        return desc -> {
            if (!desc.isClassOrInterface()) return null;
            String name = internalName(desc).replace('/', '.');
            for (ClassLoader l = loader; ; l = l.getParent()) {
                if (loaded.mayHave(l, name)) {
                    for (Class<?> c : lists.computeIfAbsent(l, loaded::initiatedBy)) {
                        if (c.getName().equals(name)) return hierarchyOf(c);
                    }
                }
                if (l == null) return null;
            }
        };
    }

    private static String internalName(ClassDesc classOrInterface) {
        String d = classOrInterface.descriptorString();
        return d.substring(1, d.length() - 1);
    }

    private static ClassHierarchyResolver.ClassHierarchyInfo hierarchyOf(Class<?> c) {
        if (c.isInterface()) return ClassHierarchyResolver.ClassHierarchyInfo.ofInterface();
        Class<?> parent = c.getSuperclass();
        return ClassHierarchyResolver.ClassHierarchyInfo.ofClass(parent == null ? null : ClassDesc.of(parent.getName()));
    }

    /**
     * A call site's callee as the static type the code names it by ({@code java.util.List.add(java.lang.Object)
     * : boolean}), with no module or jar: its class may not be loaded yet, and a virtual call may run
     * another class's method.
     */
    static String calleeName(InvokeInstruction invoke) {
        Descriptors.MethodType type = Descriptors.methodDescriptor(invoke.typeSymbol().descriptorString());
        String owner = invoke.owner().asSymbol().isArray() ? invoke.owner().asSymbol().displayName()
                : invoke.owner().asInternalName().replace('/', '.');
        String name = invoke.name().stringValue();
        return owner + '.' + name + '(' + String.join(", ", type.parameters()) + ')' + (name.equals("<init>") ? "" : " : " + type.returnType());
    }

    /** Adds the probes of one method: entry code, code before each return, a rethrowing handler. */
    private final class Injector implements CodeTransform {
        private final MethodModel method;
        private final int slot;
        private final MethodTypeDesc type;
        private final boolean constructor;
        private final Map<String, Integer> pendingNew = new HashMap<>();
        private Label bodyStart;
        private int startLocal = -1;
        private int callLocal = -1;
        /** The callees of the timed call sites, by site index; null where sites are not timed. */
        final List<String> sites;

        private final String thisClass;
        private final String superClass;

        Injector(MethodModel method, int slot, ClassModel owner) {
            this.thisClass = owner.thisClass().asInternalName();
            this.superClass = owner.superclass().map(c -> c.asInternalName()).orElse("");
            this.method = method;
            this.slot = slot;
            this.type = method.methodTypeSymbol();
            this.constructor = method.methodName().equalsString("<init>");
            this.sites = timeCallSites ? new java.util.ArrayList<>() : null;
        }

        @Override
        public void atStart(CodeBuilder b) {
            // The JDK may build the code a second time (to widen short jumps): start from nothing each time.
            bodyStart = null;
            pendingNew.clear();
            if (sites != null) sites.clear();
            switch (mode) {
                case COUNT -> {
                    b.loadConstant(slot);
                    b.invokestatic(PROBE, "count", COUNT);
                }
                case TIME -> {
                    startLocal = b.allocateLocal(TypeKind.LONG);
                    b.loadConstant(slot);
                    b.invokestatic(PROBE, "enter", ENTER);
                    b.lstore(startLocal);
                }
                case TRACE -> {
                    callLocal = b.allocateLocal(TypeKind.REFERENCE);
                    b.loadConstant(slot);
                    b.invokestatic(PROBE, "traceEnter", TRACE_ENTER);
                    b.astore(callLocal);
                    int local = method.flags().has(AccessFlag.STATIC) ? 0 : 1;
                    for (int i = 0; i < type.parameterCount(); i++) {
                        ClassDesc p = type.parameterType(i);
                        TypeKind kind = TypeKind.from(p);
                        b.aload(callLocal);
                        b.loadConstant(i);
                        b.loadLocal(kind, local);
                        b.invokestatic(PROBE, "arg", MethodTypeDesc.of(ConstantDescs.CD_void, CALL, ConstantDescs.CD_int,
                                p.isPrimitive() ? p : ConstantDescs.CD_Object));
                        local += kind.slotSize();
                    }
                }
            }
            if (mode != TraceMode.COUNT && !constructor) bodyStart = b.newBoundLabel();
        }

        @Override
        public void accept(CodeBuilder b, CodeElement e) {
            if (sites != null && bodyStart != null && e instanceof InvokeInstruction invoke) {
                timeCallSite(b, invoke);
                return;
            }
            if (e instanceof ReturnInstruction && mode != TraceMode.COUNT) onReturn(b);
            b.with(e);
            if (constructor && bodyStart == null && mode != TraceMode.COUNT && initializesThis(e)) {
                bodyStart = b.newBoundLabel();
            }
        }

        /**
         * Whether {@code e} is the constructor's own super() or this() call. A handler may not
         * cover code before it (the verifier rejects a frame with an uninitialized this), so in
         * a constructor the exit handler starts after it: an exception thrown while the
         * arguments of super() are computed goes unrecorded.
         */
        private boolean initializesThis(CodeElement e) {
            if (e instanceof NewObjectInstruction n) {
                pendingNew.merge(n.className().asInternalName(), 1, Integer::sum);
                return false;
            }
            if (!(e instanceof InvokeInstruction i) || i.opcode() != Opcode.INVOKESPECIAL
                    || !i.name().equalsString("<init>")) {
                return false;
            }
            String owner = i.owner().asInternalName();
            Integer pending = pendingNew.get(owner);
            if (pending != null && pending > 0) {
                pendingNew.put(owner, pending - 1);
                return false;
            }
            return owner.equals(thisClass) || owner.equals(superClass);
        }

        /**
         * The call between {@code siteEnter} and {@code siteExit}: both leave the operand stack as
         * they found it, so the arguments already pushed stay where the call expects them. A callee
         * that throws never reaches {@code siteExit}; the call closes its site at the next site or
         * at its own end. Sites in a constructor before its super() or this() call are not timed.
         */
        private void timeCallSite(CodeBuilder b, InvokeInstruction invoke) {
            int site = sites.size();
            sites.add(calleeName(invoke));
            b.aload(callLocal);
            b.loadConstant(site);
            b.invokestatic(PROBE, "siteEnter", SITE_ENTER);
            b.with(invoke);
            b.aload(callLocal);
            b.invokestatic(PROBE, "siteExit", SITE_EXIT);
        }

        private void onReturn(CodeBuilder b) {
            if (mode == TraceMode.TIME) {
                b.loadConstant(slot);
                b.lload(startLocal);
                b.invokestatic(PROBE, "exit", EXIT);
                return;
            }
            ClassDesc r = type.returnType();
            if (r.equals(ConstantDescs.CD_void)) {
                b.aload(callLocal);
                b.invokestatic(PROBE, "traceReturn", MethodTypeDesc.of(ConstantDescs.CD_void, CALL));
                return;
            }
            if (TypeKind.from(r).slotSize() == 2) b.dup2(); else b.dup();
            b.aload(callLocal);
            b.invokestatic(PROBE, "traceReturn", MethodTypeDesc.of(ConstantDescs.CD_void,
                    r.isPrimitive() ? r : ConstantDescs.CD_Object, CALL));
        }

        @Override
        public void atEnd(CodeBuilder b) {
            if (mode == TraceMode.COUNT || bodyStart == null) return;
            Label bodyEnd = b.newBoundLabel();
            Label handler = b.newBoundLabel();
            if (mode == TraceMode.TIME) {
                b.loadConstant(slot);
                b.lload(startLocal);
                b.invokestatic(PROBE, "exit", EXIT);
            } else {
                b.dup();
                b.aload(callLocal);
                b.invokestatic(PROBE, "traceThrow", TRACE_THROW);
            }
            b.athrow();
            b.exceptionCatchAll(bodyStart, bodyEnd, handler);
        }
    }
}
