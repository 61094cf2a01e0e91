package dev.tiprobe.report;

import dev.tiprobe.ids.HumanNames;
import dev.tiprobe.ids.HumanNames.FrameStyle;
import dev.tiprobe.recording.Allocation;
import dev.tiprobe.recording.Call;
import dev.tiprobe.recording.ClassEvent;
import dev.tiprobe.recording.Deadlock;
import dev.tiprobe.recording.LockWait;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.Sample;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A recording as a JFR file, the format JDK Mission Control, IntelliJ IDEA, {@code jfr print} and
 * async-profiler's converters read (the JDK's parser is what the tests check it with): one chunk of JFR 2.1 with the events a profiler writes, as
 * async-profiler's {@code -o jfr} does. Samples of a cpu-mode recording are {@code jdk.ExecutionSample}s
 * (those of threads seen running; the sampling period in a {@code jdk.ActiveSetting}, so each stands
 * for one period of CPU where tiprobe measured the thread's own), each written again as JDK 25's
 * {@code jdk.CPUTimeSample} for the readers of those ({@code jfr view cpu-time-hot-methods});
 * those of a wall-mode one are {@code profiler.WallClockSample}s (async-profiler's wall event: each
 * with its thread's state and the sampling intervals it stands for); allocation samples
 * {@code jdk.ObjectAllocationSample}s weighing the bytes they stand for; contended monitors
 * {@code jdk.JavaMonitorEnter}, waits {@code jdk.JavaMonitorWait}, parks {@code jdk.ThreadPark}
 * (parked for a lock or a condition: JFR has one event for both); each deadlock {@code
 * tiprobe.Deadlock} events, one a thread of it, with the lock it waits for, its holder and the
 * locks it holds. tiprobe's own events, which
 * JFR has no type for, are {@code tiprobe.TracedCall} (each traced call kept: its method, thread,
 * duration, arguments and result as the text report shows them, whether it threw, its depth, and
 * its stack where it was kept by its duration), {@code tiprobe.ClassLoad} and
 * {@code tiprobe.ClassUnload}. Method statistics have no event (JSON and text keep them).
 *
 * <p>The layout, as the JDK's own parser reads it (its {@code jdk.jfr.internal.consumer}): a
 * 68-byte header; the events, each {@code size type fields} in compressed integers; one checkpoint
 * holding every constant pool (threads, stack traces, methods, classes, symbols, thread states, frame types);
 * the metadata last, a tree of class elements describing each type's fields in order. Time is in
 * nanosecond ticks from the recording's start. The JDK's types keep every field the JDK gives them,
 * in its order, for JMC and async-profiler read some by position (a frame's type, a class's loader
 * and package, a method's modifiers); what tiprobe does not know is null, 0 or false: a frame's
 * type is "Unknown" (tiprobe does not know whether it ran interpreted or compiled), methods and
 * classes have no modifiers, classes no loader and packages no module, threads no OS thread id
 * or group, monitors no address. A class's package is its name's, and a thread's key in the
 * pool its Java thread id, as the JVM keys its own (async-profiler's converter names a thread
 * by its key).
 */
public final class JfrExport {
    private JfrExport() {}

    private static final int HEADER_BYTES = 68;
    /** Header flags: integers compressed (JMC reads fixed-width ones otherwise), final chunk. */
    private static final int FLAGS = 0x3;

    // Type ids: any but 0 (metadata) and 1 (checkpoint).
    private static final int LONG = 10, INT = 11, BOOLEAN = 12, STRING = 13;
    private static final int THREAD = 20, CLASS = 21, STACK_TRACE = 22, STACK_FRAME = 23, METHOD = 24, SYMBOL = 25, THREAD_STATE = 26,
            FRAME_TYPE = 27, THREAD_GROUP = 28, CLASS_LOADER = 29, PACKAGE = 30, MODULE = 31;
    private static final int LABEL = 40, TIMESTAMP = 41, TIMESPAN = 42, DATA_AMOUNT = 43, MEMORY_ADDRESS = 44, CONTENT_TYPE = 45;
    private static final int EXECUTION_SAMPLE = 100, WALL_CLOCK_SAMPLE = 101, ALLOCATION_SAMPLE = 102, MONITOR_ENTER = 103, MONITOR_WAIT = 104, ACTIVE_SETTING = 105,
            CPU_TIME_SAMPLE = 106;
    /** The frame type every frame has: JFR's "JIT compiled" key (a Java frame to readers that go by the key), described as unknown. */
    private static final int FRAME_TYPE_KEY = 1;
    private static final int TRACED_CALL = 110, CLASS_LOAD = 111, CLASS_UNLOAD = 112, THREAD_PARK = 113, DEADLOCK = 114;

    /** Writes {@code r} to {@code out} as a JFR file. */
    public static void write(Recording r, OutputStream out) throws IOException {
        Pools pools = new Pools(r);
        boolean wall = !r.cpuMode();
        Bytes events = new Bytes();
        settings(events, r, wall);
        samples(events, r, pools, wall);
        allocations(events, r, pools);
        waits(events, r, pools);
        deadlocks(events, r, pools);
        calls(events, r, pools);
        classEvents(events, r, pools);
        Bytes checkpoint = pools.checkpoint();
        Bytes metadata = metadata(wall);
        header(r, events.size(), checkpoint.size(), metadata.size()).writeTo(out);
        events.writeTo(out);
        checkpoint.writeTo(out);
        metadata.writeTo(out);
    }

    /** What each execution sample stands for, as JFR's settings say it (cpu mode only: wall samples carry their own weight). */
    private static void settings(Bytes events, Recording r, boolean wall) {
        long interval = r.infoNumber(RecordingFormat.INFO_INTERVAL);
        if (wall || interval <= 0) return;
        Bytes e = new Bytes();
        e.varlong(0);
        e.varlong(EXECUTION_SAMPLE);
        e.string("period");
        e.string(interval + " ns");
        events.event(ACTIVE_SETTING, e);
    }

    private static void samples(Bytes events, Recording r, Pools pools, boolean wall) {
        for (Sample s : r.samples()) {
            // JFR's execution samples are of threads running Java: a cpu-mode sample of a thread seen not running holds no CPU
            if (!wall && s.state() != RecordingFormat.STATE_RUNNABLE) continue;
            Bytes e = new Bytes();
            e.varlong(s.epochNanos() - r.startEpochNanos());
            e.varlong(pools.thread(s.threadId()));
            e.varlong(pools.stack(s.frames(), s.lines()));
            e.varlong(pools.state(s.state()));
            if (wall) e.varlong(Math.max(1, s.ticks()));
            events.event(wall ? WALL_CLOCK_SAMPLE : EXECUTION_SAMPLE, e);
            if (!wall) cpuTimeSample(events, r, pools, s);
        }
    }

    /** The sample again as JDK 25's CPU-time sample, which {@code jfr view cpu-time-hot-methods} and {@code jfrconv --cpu-time} read. */
    private static void cpuTimeSample(Bytes events, Recording r, Pools pools, Sample s) {
        Bytes e = new Bytes();
        e.varlong(s.epochNanos() - r.startEpochNanos());
        e.varlong(pools.stack(s.frames(), s.lines()));
        e.varlong(pools.thread(s.threadId()));
        e.bool(false);  // failed
        e.varlong(Math.max(0, r.infoNumber(RecordingFormat.INFO_INTERVAL)));  // the sampling period, in ticks
        e.bool(false);  // biased
        events.event(CPU_TIME_SAMPLE, e);
    }

    private static void allocations(Bytes events, Recording r, Pools pools) {
        for (Allocation a : r.events().allocations()) {
            Bytes e = new Bytes();
            e.varlong(a.epochNanos() - r.startEpochNanos());
            e.varlong(pools.thread(a.threadId()));
            e.varlong(pools.stack(a.frames(), a.lines()));
            e.varlong(pools.type(r.typeName(a.typeId())));
            e.varlong(a.estimatedBytes());
            events.event(ALLOCATION_SAMPLE, e);
        }
    }

    private static void waits(Bytes events, Recording r, Pools pools) {
        for (LockWait w : r.events().locks()) {
            Bytes e = new Bytes();
            e.varlong(w.epochNanos() - w.waitNanos() - r.startEpochNanos());  // JFR times a wait from its start; tiprobe keeps its end
            e.varlong(w.waitNanos());
            e.varlong(pools.thread(w.threadId()));
            e.varlong(pools.stack(w.frames(), w.lines()));
            e.varlong(pools.type(r.typeName(w.typeId())));
            if (RecordingFormat.isPark(w.kind())) {
                e.varlong(Long.MIN_VALUE);  // timeout: not known (JFR's value for none)
                e.varlong(Long.MIN_VALUE);  // until: not known
                e.varlong(0);  // the synchronizer's address: not known
                events.event(THREAD_PARK, e);
                continue;
            }
            e.varlong(w.ownerThreadId() == 0 ? 0 : pools.thread(w.ownerThreadId()));
            boolean contended = w.kind() == RecordingFormat.LOCK_CONTENDED;
            if (!contended) {
                e.varlong(0);  // timeout: not known
                e.bool(false);  // timed out: not known
            }
            e.varlong(0);  // the monitor's address: not known
            events.event(contended ? MONITOR_ENTER : MONITOR_WAIT, e);
        }
    }

    /** Each deadlock as one {@code tiprobe.Deadlock} event per thread of it, numbered alike. */
    private static void deadlocks(Bytes events, Recording r, Pools pools) {
        int n = 0;
        for (Deadlock d : r.events().deadlocks()) {
            n++;
            for (Deadlock.Waiter t : d.threads()) {
                Bytes e = new Bytes();
                e.varlong(d.epochNanos() - r.startEpochNanos());
                e.varlong(pools.thread(t.threadId()));
                e.varlong(t.stack().frames().length == 0 ? 0 : pools.stack(t.stack().frames(), t.stack().lines()));
                e.varlong(n);
                e.string(t.waitsFor());
                e.varlong(pools.thread(t.ownerId()));
                e.string(String.join(", ", t.held()));
                events.event(DEADLOCK, e);
            }
        }
    }

    private static void calls(Bytes events, Recording r, Pools pools) {
        for (Call c : r.calls()) {
            Bytes e = new Bytes();
            e.varlong(c.startEpochNanos() - r.startEpochNanos());
            e.varlong(c.durationNanos() >= 0 ? c.durationNanos() : Math.max(0, r.endEpochNanos() - c.startEpochNanos()));  // still running at the end
            e.varlong(pools.thread(c.threadId()));
            e.varlong(c.stackFrames().length == 0 ? 0 : pools.stack(c.stackFrames(), c.stackLines()));
            e.varlong(pools.method(c.methodId()));
            e.string(TracedText.arguments(c));  // as the text report shows them
            e.string(ValueText.of(c.result()));
            e.bool(c.threw());
            e.varlong(c.depth());
            events.event(TRACED_CALL, e);
        }
    }

    private static void classEvents(Bytes events, Recording r, Pools pools) {
        for (ClassEvent c : r.classEvents()) {
            Bytes e = new Bytes();
            e.varlong(c.epochNanos() - r.startEpochNanos());
            e.varlong(pools.type(c.className()));
            events.event(c.load() ? CLASS_LOAD : CLASS_UNLOAD, e);
        }
    }

    /** The chunk header: where the constant pool and the metadata begin, the chunk's time span and its clock. */
    private static Bytes header(Recording r, long eventBytes, long checkpointBytes, long metadataBytes) {
        long start = r.startEpochNanos();
        long constantPoolOffset = HEADER_BYTES + eventBytes;
        long metadataOffset = constantPoolOffset + checkpointBytes;
        Bytes header = new Bytes();
        header.raw(new byte[] {'F', 'L', 'R', 0});
        header.u2(2);
        header.u2(1);
        header.i8(metadataOffset + metadataBytes);  // the chunk's size
        header.i8(constantPoolOffset);
        header.i8(metadataOffset);
        header.i8(start);
        header.i8(Math.max(0, r.endEpochNanos() - start));
        header.i8(0);  // start ticks: ticks count nanoseconds from the start
        header.i8(1_000_000_000L);
        header.raw(new byte[] {0, 0});  // file state 0: written and whole
        header.u2(FLAGS);
        return header;
    }

    /** The constant pools, filled as the events name their entries; keys count from 1 (0 is null). */
    private static final class Pools {
        private final Recording r;
        final Map<Long, Long> threads = new LinkedHashMap<>();
        final Map<String, Long> stacks = new LinkedHashMap<>();
        final List<int[][]> stackFrames = new ArrayList<>();
        final Map<Integer, Long> methods = new LinkedHashMap<>();
        final Map<String, Long> classes = new LinkedHashMap<>();
        final Map<String, Long> symbols = new LinkedHashMap<>();
        final Map<String, Long> states = new LinkedHashMap<>();
        /** Each method key's class, name and descriptor symbols. */
        final List<long[]> methodParts = new ArrayList<>();
        /** Each class key's name symbol. */
        final List<Long> classNames = new ArrayList<>();
        /** Each class key's package key (0: none, an array or a class of no package). */
        final List<Long> classPackages = new ArrayList<>();
        /** Each package by the name the JVM gives it ({@code com/foo}), with its key; each key's name symbol. */
        final Map<String, Long> packages = new LinkedHashMap<>();
        final List<Long> packageNames = new ArrayList<>();

        Pools(Recording r) {
            this.r = r;
        }

        /**
         * A thread's key: its Java thread id, as the JVM keys its own; the one thread of all
         * virtual threads (id 0) a key no Java thread has. Within an int: async-profiler's
         * converter reads an event's thread as one.
         */
        long thread(long threadId) {
            return threads.computeIfAbsent(threadId, id -> id > 0 ? id : Integer.MAX_VALUE - threads.size());
        }

        long state(byte state) {
            String name = switch (state) {
                case RecordingFormat.STATE_RUNNABLE -> "STATE_RUNNABLE";
                case RecordingFormat.STATE_WAITING -> "STATE_WAITING";
                default -> "STATE_BLOCKED";
            };
            return states.computeIfAbsent(name, n -> (long) states.size() + 1);
        }

        long stack(int[] frames, int[] lines) {
            String key = Arrays.toString(frames) + Arrays.toString(lines);
            Long known = stacks.get(key);
            if (known != null) return known;
            long id = stacks.size() + 1;
            stacks.put(key, id);
            stackFrames.add(new int[][] {frames, lines});
            return id;
        }

        long symbol(String s) {
            return symbols.computeIfAbsent(s, x -> (long) symbols.size() + 1);
        }

        /**
         * A class by the name the views give it ({@code com.foo.Bar}, {@code byte[]}), as the JVM
         * names it ({@code com/foo/Bar}, {@code [B}); a name that is no class's ({@code [no blocker]},
         * {@code [class initialization by another thread]}, a pinned virtual thread's park with why) as
         * no class, as JFR writes a park without a blocker.
         */
        long type(String viewName) {
            if (viewName.startsWith("[") || viewName.contains(" ")) return 0;
            String jvmName = jvmClassName(viewName);
            Long known = classes.get(jvmName);
            if (known != null) return known;
            long id = classes.size() + 1;
            classes.put(jvmName, id);
            classNames.add(symbol(jvmName));
            String pkg = packageOf(viewName);
            classPackages.add(pkg == null ? 0 : packages.computeIfAbsent(pkg, p -> {
                packageNames.add(symbol(p));
                return (long) packageNames.size();
            }));
            return id;
        }

        long method(int methodId) {
            Long known = methods.get(methodId);
            if (known != null) return known;
            String human = r.methodName(methodId);
            String dotted = HumanNames.frame(human, FrameStyle.DOT);
            int dot = dotted.lastIndexOf('.');
            String owner = dot < 0 ? "" : dotted.substring(0, dot);
            String name = dot < 0 ? dotted : dotted.substring(dot + 1);
            long id = methods.size() + 1;
            methods.put(methodId, id);
            methodParts.add(new long[] {type(owner), symbol(name), symbol(descriptor(human))});
            return id;
        }

        /** Every pool in one checkpoint event; methods and classes are named while the stacks are written, so those go first. */
        Bytes checkpoint() {
            Bytes traces = new Bytes();
            for (int i = 0; i < stackFrames.size(); i++) {
                int[] frames = stackFrames.get(i)[0];
                int[] lines = stackFrames.get(i)[1];
                int depth = frames.length;
                boolean truncated = depth > 0 && frames[depth - 1] == Recording.TRUNCATED;  // the reader's root for a cut stack
                if (truncated) depth--;
                traces.varlong(i + 1);
                traces.bool(truncated);
                traces.varlong(depth);
                for (int f = 0; f < depth; f++) {
                    traces.varlong(method(frames[f]));
                    traces.varlong(f < lines.length ? Math.max(0, lines[f]) : 0);
                    traces.varlong(0);  // bytecode index: not known
                    traces.varlong(FRAME_TYPE_KEY);
                }
            }
            Bytes methodPool = new Bytes();
            for (int i = 0; i < methodParts.size(); i++) {
                methodPool.varlong(i + 1);
                for (long part : methodParts.get(i)) methodPool.varlong(part);
                methodPool.varlong(0);  // modifiers: not known
                methodPool.bool(false);  // hidden
            }
            Bytes classPool = new Bytes();
            for (int i = 0; i < classNames.size(); i++) {
                classPool.varlong(i + 1);
                classPool.varlong(0);  // class loader
                classPool.varlong(classNames.get(i));
                classPool.varlong(classPackages.get(i));
                classPool.varlong(0);  // modifiers: not known
                classPool.bool(false);  // hidden
            }
            Bytes packagePool = new Bytes();
            for (int i = 0; i < packageNames.size(); i++) {
                packagePool.varlong(i + 1);
                packagePool.varlong(packageNames.get(i));
                packagePool.varlong(0);  // module: not known
                packagePool.bool(false);  // exported: not known
            }
            Bytes threadPool = new Bytes();
            for (Map.Entry<Long, Long> t : threads.entrySet()) {
                String name = r.threadName(t.getKey());
                threadPool.varlong(t.getValue());
                threadPool.string(name);
                threadPool.varlong(0);  // OS thread id: not known
                threadPool.string(name);
                threadPool.varlong(t.getKey());
                threadPool.varlong(0);  // thread group
                threadPool.bool(false);  // virtual
            }
            Bytes frameTypes = new Bytes();
            frameTypes.varlong(FRAME_TYPE_KEY);
            frameTypes.string("Unknown");  // tiprobe does not know whether a frame ran interpreted, compiled or inlined
            List<Object[]> pools = new ArrayList<>();
            pools.add(new Object[] {STACK_TRACE, stackFrames.size(), traces});
            pools.add(new Object[] {METHOD, methodParts.size(), methodPool});
            pools.add(new Object[] {CLASS, classNames.size(), classPool});
            pools.add(new Object[] {PACKAGE, packageNames.size(), packagePool});
            pools.add(new Object[] {THREAD, threads.size(), threadPool});
            pools.add(new Object[] {SYMBOL, symbols.size(), strings(symbols)});
            pools.add(new Object[] {THREAD_STATE, states.size(), strings(states)});
            pools.add(new Object[] {FRAME_TYPE, stackFrames.isEmpty() ? 0 : 1, frameTypes});
            pools.removeIf(p -> (int) p[1] == 0);  // a pool of no entries is refused
            Bytes body = new Bytes();
            body.varlong(0);  // start ticks
            body.varlong(0);  // duration
            body.varlong(0);  // delta to the next checkpoint: none
            body.raw(new byte[] {0});  // checkpoint type: plain
            body.varlong(pools.size());
            for (Object[] p : pools) {
                body.varlong((int) p[0]);
                body.varlong((int) p[1]);
                body.append((Bytes) p[2]);
            }
            Bytes event = new Bytes();
            event.event(1, body);
            return event;
        }

        /** Symbols and thread states, in UTF-8 even where empty (async-profiler's reader takes a symbol in no other encoding). */
        private static Bytes strings(Map<String, Long> pool) {
            Bytes b = new Bytes();
            for (Map.Entry<String, Long> e : pool.entrySet()) {
                b.varlong(e.getValue());
                b.utf8(e.getKey());
            }
            return b;
        }
    }

    /**
     * The package of a class by the name the views give it, as the JVM names it ({@code com/foo}
     * for {@code com.foo.Bar$Inner}, and for a hidden class {@code com.foo.Bar$$Lambda/0x…});
     * null for an array or a class in no package.
     */
    static String packageOf(String viewName) {
        if (viewName.endsWith("[]")) return null;
        int hidden = viewName.indexOf('/');  // a hidden class's name, then its address
        String binary = hidden < 0 ? viewName : viewName.substring(0, hidden);
        int dot = binary.lastIndexOf('.');
        return dot <= 0 ? null : binary.substring(0, dot).replace('.', '/');
    }

    /**
     * A class's name as the JVM writes it in JFR: {@code com/foo/Bar}, arrays by descriptor
     * ({@code [B}, {@code [Ljava/lang/String;}); a hidden class keeps the name the views give it.
     */
    static String jvmClassName(String viewName) {
        int dims = 0;
        String element = viewName;
        while (element.endsWith("[]")) {
            dims++;
            element = element.substring(0, element.length() - 2);
        }
        if (dims == 0) return element.replace('.', '/');
        return "[".repeat(dims) + fieldDescriptor(element);
    }

    /** {@code java.util.Map<K, java.util.List<V>>[]} as {@code java.util.Map[]}. */
    private static String withoutTypeArguments(String type) {
        StringBuilder b = new StringBuilder();
        int depth = 0;
        for (int i = 0; i < type.length(); i++) {
            char c = type.charAt(i);
            if (c == '<') depth++;
            else if (c == '>') depth--;
            else if (depth == 0) b.append(c);
        }
        return b.toString();
    }

    private static String fieldDescriptor(String type) {
        int dims = 0;
        String t = withoutTypeArguments(type).strip();
        if (t.endsWith("...")) {
            dims++;
            t = t.substring(0, t.length() - 3);
        }
        while (t.endsWith("[]")) {
            dims++;
            t = t.substring(0, t.length() - 2);
        }
        String one = switch (t) {
            case "boolean" -> "Z";
            case "byte" -> "B";
            case "char" -> "C";
            case "short" -> "S";
            case "int" -> "I";
            case "long" -> "J";
            case "float" -> "F";
            case "double" -> "D";
            case "void" -> "V";
            default -> "L" + t.replace('.', '/') + ";";
        };
        return "[".repeat(dims) + one;
    }

    /**
     * A method's descriptor from its human name ({@code com.foo.Bar.baz(int, java.util.List<java.lang.String>) : long}
     * gives {@code (ILjava/util/List;)J}); a generic type variable stands as {@code Ljava/lang/Object;},
     * and a frame that names no method gives {@code ()V}.
     */
    static String descriptor(String human) {
        int open = human.indexOf('(');
        int close = human.lastIndexOf(')');
        if (open < 0 || close < open) return "()V";
        StringBuilder b = new StringBuilder("(");
        for (String parameter : parameters(human.substring(open + 1, close))) {
            String type = withoutTypeArguments(parameter).strip();
            int space = type.lastIndexOf(' ');
            if (space > 0) type = type.substring(0, space);  // a parameter's name
            b.append(typeVariable(type) ? "Ljava/lang/Object;" : fieldDescriptor(type));
        }
        int colon = human.indexOf(" : ", close);
        String returned = colon < 0 ? "void" : withoutTypeArguments(human.substring(colon + 3)).strip();
        return b.append(')').append(typeVariable(returned) ? "Ljava/lang/Object;" : fieldDescriptor(returned)).toString();
    }

    /** {@code T}, {@code E[]}: a type variable, which has no package and starts upper case with no dot. */
    private static boolean typeVariable(String type) {
        String t = type.replace("[]", "").replace("...", "");
        return !t.isEmpty() && t.indexOf('.') < 0 && Character.isUpperCase(t.charAt(0)) && t.length() <= 2;
    }

    /** The parameters of a parameter list, split at the commas outside generic brackets. */
    private static List<String> parameters(String list) {
        List<String> out = new ArrayList<>();
        if (list.isBlank()) return out;
        int depth = 0;
        int from = 0;
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            if (c == '<') depth++;
            else if (c == '>') depth--;
            else if (c == ',' && depth == 0) {
                out.add(list.substring(from, i));
                from = i + 1;
            }
        }
        out.add(list.substring(from));
        return out;
    }

    /** The metadata event: every type the events and pools use, their fields in the order they are written. */
    private static Bytes metadata(boolean wall) {
        Element root = new Element("root");
        Element types = root.child("metadata");
        valueTypes(types);
        eventTypes(types, wall);
        root.child("region").attribute("locale", "en_US").attribute("gmtOffset", "0");
        return metadataEvent(root);
    }

    /** The types events' fields refer to: primitives, the annotations used, threads, classes, methods and stacks. */
    private static void valueTypes(Element types) {
        for (Object[] p : new Object[][] {{"long", LONG}, {"int", INT}, {"boolean", BOOLEAN}, {"java.lang.String", STRING}}) {
            types.type((String) p[0], (int) p[1], null, false);
        }
        // The units' annotations are content types, as the JDK declares them: readers format a
        // field by its content type (jfr print: "1.56 ms", "N/A" for a timespan of Long.MIN_VALUE).
        types.type("jdk.jfr.ContentType", CONTENT_TYPE, "java.lang.annotation.Annotation", false);
        types.type("jdk.jfr.Label", LABEL, "java.lang.annotation.Annotation", false).field("value", STRING, false, false);
        for (Object[] a : new Object[][] {{"jdk.jfr.Timestamp", TIMESTAMP}, {"jdk.jfr.Timespan", TIMESPAN}, {"jdk.jfr.DataAmount", DATA_AMOUNT}}) {
            types.type((String) a[0], (int) a[1], "java.lang.annotation.Annotation", false).annotation(CONTENT_TYPE, null)
                    .field("value", STRING, false, false);
        }
        types.type("jdk.jfr.MemoryAddress", MEMORY_ADDRESS, "java.lang.annotation.Annotation", false).annotation(CONTENT_TYPE, null);
        Element thread = types.type("java.lang.Thread", THREAD, null, false);
        thread.field("osName", STRING, false, false);
        thread.field("osThreadId", LONG, false, false);
        thread.field("javaName", STRING, false, false);
        thread.field("javaThreadId", LONG, false, false);
        thread.field("group", THREAD_GROUP, true, false);
        thread.field("virtual", BOOLEAN, false, false);
        Element group = types.type("jdk.types.ThreadGroup", THREAD_GROUP, null, false);
        group.field("parent", THREAD_GROUP, true, false);
        group.field("name", STRING, false, false);
        Element type = types.type("java.lang.Class", CLASS, null, false);
        type.field("classLoader", CLASS_LOADER, true, false);
        type.field("name", SYMBOL, true, false);
        type.field("package", PACKAGE, true, false);
        type.field("modifiers", INT, false, false);
        type.field("hidden", BOOLEAN, false, false);
        Element loader = types.type("jdk.types.ClassLoader", CLASS_LOADER, null, false);
        loader.field("type", CLASS, true, false);
        loader.field("name", SYMBOL, true, false);
        Element pkg = types.type("jdk.types.Package", PACKAGE, null, false);
        pkg.field("name", SYMBOL, true, false);
        pkg.field("module", MODULE, true, false);
        pkg.field("exported", BOOLEAN, false, false);
        Element module = types.type("jdk.types.Module", MODULE, null, false);
        module.field("name", SYMBOL, true, false);
        module.field("version", SYMBOL, true, false);
        module.field("location", SYMBOL, true, false);
        module.field("classLoader", CLASS_LOADER, true, false);
        types.type("jdk.types.Symbol", SYMBOL, null, true).field("string", STRING, false, false);
        types.type("jdk.types.ThreadState", THREAD_STATE, null, true).field("name", STRING, false, false);
        types.type("jdk.types.FrameType", FRAME_TYPE, null, true).field("description", STRING, false, false);
        Element method = types.type("jdk.types.Method", METHOD, null, false);
        method.field("type", CLASS, true, false);
        method.field("name", SYMBOL, true, false);
        method.field("descriptor", SYMBOL, true, false);
        method.field("modifiers", INT, false, false);
        method.field("hidden", BOOLEAN, false, false);
        Element frame = types.type("jdk.types.StackFrame", STACK_FRAME, null, false);
        frame.field("method", METHOD, true, false);
        frame.field("lineNumber", INT, false, false);
        frame.field("bytecodeIndex", INT, false, false);
        frame.field("type", FRAME_TYPE, true, false);
        Element trace = types.type("jdk.types.StackTrace", STACK_TRACE, null, false);
        trace.field("truncated", BOOLEAN, false, false);
        trace.field("frames", STACK_FRAME, false, true);
    }

    /** The event types this export writes; a wall recording's samples as async-profiler names its wall-clock samples. */
    private static void eventTypes(Element types, boolean wall) {
        Element sample = event(types, wall ? "profiler.WallClockSample" : "jdk.ExecutionSample", wall ? WALL_CLOCK_SAMPLE : EXECUTION_SAMPLE,
                wall ? "Wall Clock Sample" : "Method Profiling Sample", false);
        sample.field("sampledThread", THREAD, true, false);
        sample.field("stackTrace", STACK_TRACE, true, false);
        sample.field("state", THREAD_STATE, true, false);
        if (wall) sample.field("samples", INT, false, false);
        Element allocation = event(types, "jdk.ObjectAllocationSample", ALLOCATION_SAMPLE, "Object Allocation Sample", false);
        allocation.field("eventThread", THREAD, true, false);
        allocation.field("stackTrace", STACK_TRACE, true, false);
        allocation.field("objectClass", CLASS, true, false);
        allocation.field("weight", LONG, false, false).annotation(DATA_AMOUNT, "BYTES");
        if (!wall) {
            Element cpuTime = event(types, "jdk.CPUTimeSample", CPU_TIME_SAMPLE, "CPU Time Sample", false);
            cpuTime.field("stackTrace", STACK_TRACE, true, false);
            cpuTime.field("eventThread", THREAD, true, false);
            cpuTime.field("failed", BOOLEAN, false, false);
            cpuTime.field("samplingPeriod", LONG, false, false).annotation(TIMESPAN, "TICKS");
            cpuTime.field("biased", BOOLEAN, false, false);
        }
        for (Object[] m : new Object[][] {{"jdk.JavaMonitorEnter", MONITOR_ENTER, "Java Monitor Blocked", "previousOwner"},
                {"jdk.JavaMonitorWait", MONITOR_WAIT, "Java Monitor Wait", "notifier"}}) {
            Element monitor = event(types, (String) m[0], (int) m[1], (String) m[2], true);
            monitor.field("eventThread", THREAD, true, false);
            monitor.field("stackTrace", STACK_TRACE, true, false);
            monitor.field("monitorClass", CLASS, true, false);
            monitor.field((String) m[3], THREAD, true, false);
            if (m[0].equals("jdk.JavaMonitorWait")) {
                monitor.field("timeout", LONG, false, false).annotation(TIMESPAN, "MILLISECONDS");
                monitor.field("timedOut", BOOLEAN, false, false);
            }
            monitor.field("address", LONG, false, false).annotation(MEMORY_ADDRESS, null);  // JMC groups monitors by it as an address
        }
        Element park = event(types, "jdk.ThreadPark", THREAD_PARK, "Java Thread Park", true);
        park.field("eventThread", THREAD, true, false);
        park.field("stackTrace", STACK_TRACE, true, false);
        park.field("parkedClass", CLASS, true, false);
        park.field("timeout", LONG, false, false).annotation(TIMESPAN, "NANOSECONDS");
        park.field("until", LONG, false, false).annotation(TIMESTAMP, "MILLISECONDS_SINCE_EPOCH");
        park.field("address", LONG, false, false).annotation(MEMORY_ADDRESS, null);
        Element deadlock = event(types, "tiprobe.Deadlock", DEADLOCK, "Deadlock", false);
        deadlock.field("eventThread", THREAD, true, false);
        deadlock.field("stackTrace", STACK_TRACE, true, false);
        deadlock.field("deadlock", INT, false, false);
        deadlock.field("waitsFor", STRING, false, false);
        deadlock.field("heldBy", THREAD, true, false);
        deadlock.field("holds", STRING, false, false);
        Element call = event(types, "tiprobe.TracedCall", TRACED_CALL, "Traced Call", true);
        call.field("eventThread", THREAD, true, false);
        call.field("stackTrace", STACK_TRACE, true, false);
        call.field("method", METHOD, true, false);
        call.field("arguments", STRING, false, false);
        call.field("result", STRING, false, false);
        call.field("threw", BOOLEAN, false, false);
        call.field("depth", INT, false, false);
        for (Object[] c : new Object[][] {{"tiprobe.ClassLoad", CLASS_LOAD, "Class Load"}, {"tiprobe.ClassUnload", CLASS_UNLOAD, "Class Unload"}}) {
            event(types, (String) c[0], (int) c[1], (String) c[2], false).field("loadedClass", CLASS, true, false);
        }
        Element setting = event(types, "jdk.ActiveSetting", ACTIVE_SETTING, "Recording Setting", false);
        setting.field("id", LONG, false, false);
        setting.field("name", STRING, false, false);
        setting.field("value", STRING, false, false);
    }

    /** The metadata event: its header, the string table of every name and value in the tree, then the tree. */
    private static Bytes metadataEvent(Element root) {
        Map<String, Integer> strings = new LinkedHashMap<>();
        root.collect(strings);
        Bytes body = new Bytes();
        body.varlong(0);  // start ticks
        body.varlong(0);  // duration
        body.varlong(1);  // metadata id
        body.varlong(strings.size());
        for (String s : strings.keySet()) body.string(s);
        root.write(body, strings);
        Bytes event = new Bytes();
        event.event(0, body);
        return event;
    }

    /** An event type: {@code startTime} first, then {@code duration} where it has one (the parser reads both by position). */
    private static Element event(Element types, String name, int id, String label, boolean timed) {
        Element e = types.type(name, id, "jdk.jfr.Event", false);
        e.annotation(LABEL, label);
        e.field("startTime", LONG, false, false).annotation(TIMESTAMP, "TICKS");
        if (timed) e.field("duration", LONG, false, false).annotation(TIMESPAN, "TICKS");
        return e;
    }

    /** An element of the metadata tree: a name, attributes and children. */
    private static final class Element {
        final String name;
        final Map<String, String> attributes = new LinkedHashMap<>();
        final List<Element> children = new ArrayList<>();

        Element(String name) {
            this.name = name;
        }

        Element child(String childName) {
            Element c = new Element(childName);
            children.add(c);
            return c;
        }

        Element attribute(String key, String value) {
            attributes.put(key, value);
            return this;
        }

        Element type(String typeName, int id, String superType, boolean simple) {
            Element c = child("class").attribute("name", typeName).attribute("id", Integer.toString(id));
            if (superType != null) c.attribute("superType", superType);
            if (simple) c.attribute("simpleType", "true");  // the parser takes the attribute's presence for true
            return c;
        }

        Element field(String fieldName, int type, boolean constantPool, boolean array) {
            Element f = child("field").attribute("name", fieldName).attribute("class", Integer.toString(type));
            if (array) f.attribute("dimension", "1");
            if (constantPool) f.attribute("constantPool", "true");
            return f;
        }

        Element annotation(int type, String value) {
            Element a = child("annotation").attribute("class", Integer.toString(type));
            if (value != null) a.attribute("value", value);
            return this;
        }

        void collect(Map<String, Integer> strings) {
            strings.putIfAbsent(name, strings.size());
            for (Map.Entry<String, String> a : attributes.entrySet()) {
                strings.putIfAbsent(a.getKey(), strings.size());
                strings.putIfAbsent(a.getValue(), strings.size());
            }
            for (Element c : children) c.collect(strings);
        }

        void write(Bytes b, Map<String, Integer> strings) {
            b.varlong(strings.get(name));
            b.varlong(attributes.size());
            for (Map.Entry<String, String> a : attributes.entrySet()) {
                b.varlong(strings.get(a.getKey()));
                b.varlong(strings.get(a.getValue()));
            }
            b.varlong(children.size());
            for (Element c : children) c.write(b, strings);
        }
    }

    /** Bytes in JFR's encodings: compressed integers (LEB128, the ninth byte whole), UTF-8 strings. */
    private static final class Bytes {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        int size() {
            return out.size();
        }

        void raw(byte[] bytes) {
            out.writeBytes(bytes);
        }

        void append(Bytes other) {
            out.writeBytes(other.out.toByteArray());
        }

        void writeTo(OutputStream o) throws IOException {
            out.writeTo(o);
        }

        void u2(int v) {
            out.write(v >>> 8);
            out.write(v);
        }

        void i8(long v) {
            for (int shift = 56; shift >= 0; shift -= 8) out.write((int) (v >>> shift));
        }

        void varlong(long v) {
            for (int i = 0; i < 8; i++) {
                if ((v & ~0x7FL) == 0) {
                    out.write((int) v);
                    return;
                }
                out.write((int) (v & 0x7F) | 0x80);
                v >>>= 7;
            }
            out.write((int) v);  // bits 56 to 63, whole
        }

        void bool(boolean v) {
            out.write(v ? 1 : 0);
        }

        void string(String s) {
            if (s == null) {
                out.write(0);
            } else if (s.isEmpty()) {
                out.write(1);
            } else {
                utf8(s);
            }
        }

        void utf8(String s) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            out.write(3);
            varlong(utf8.length);
            out.writeBytes(utf8);
        }

        /** {@code body} as an event of {@code type}: its size first, counting the size's own four bytes (padded, as the JDK writes it). */
        void event(long type, Bytes body) {
            Bytes typed = new Bytes();
            typed.varlong(type);
            typed.append(body);
            int size = typed.size() + 4;
            if (size < 1 << 28) {
                out.write((size & 0x7F) | 0x80);
                out.write(((size >>> 7) & 0x7F) | 0x80);
                out.write(((size >>> 14) & 0x7F) | 0x80);
                out.write((size >>> 21) & 0x7F);
            } else {
                varlong(typed.size() + 5L);  // a checkpoint of over 256 MiB: five bytes of size
            }
            out.writeBytes(typed.out.toByteArray());
        }
    }
}
