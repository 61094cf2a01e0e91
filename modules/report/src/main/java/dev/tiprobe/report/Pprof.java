package dev.tiprobe.report;

import dev.tiprobe.ids.HumanNames;
import dev.tiprobe.recording.MethodStats;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.Sample;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * A recording as a pprof profile (profile.proto, gzipped): what {@code go tool pprof}, speedscope
 * and the continuous-profiling stores (Pyroscope, Parca, Cloud Profiler) read.
 *
 * <p>Sample types: {@code samples/count} and {@code cpu/nanoseconds} always; a wall-mode recording
 * adds {@code wall/nanoseconds} (each sample worth one interval) and makes it the default, a
 * cpu-mode one makes cpu the default. Each distinct method is a function named as folded stacks
 * name its frames ({@link HumanNames#frame}; its full name is the system name), its jar or module
 * its mapping, the first mapping the program's own; each (method, line) is a
 * location, its file the path of the source its class names ({@code org/foo/Bar.java}). Every
 * sample carries its thread's name as the label {@code thread}, and the labels it is given (the
 * agent's loop gives {@code service}, {@code host} and {@code pid}, which Pyroscope and Parca
 * index); the traced methods' statistics go into the profile's comments.
 */
public final class Pprof {
    private Pprof() {}

    /** Writes the view {@code p} to {@code out}, gzipped, its functions named in {@code style}, and closes nothing. */
    public static void write(Profile p, HumanNames.FrameStyle style, OutputStream out) throws IOException {
        write(p, style, Map.of(), out);
    }

    /** As {@link #write(Profile, HumanNames.FrameStyle, OutputStream)}, every sample also carrying {@code labels}. */
    public static void write(Profile p, HumanNames.FrameStyle style, Map<String, String> labels, OutputStream out) throws IOException {
        GZIPOutputStream gz = new GZIPOutputStream(out);
        gz.write(new Pprof.Builder(p, style, labels).profile());
        gz.finish();
    }

    /** The profile's tables, filled as the samples are met. */
    private static final class Builder {
        private final Profile view;
        private final Recording r;
        private final HumanNames.FrameStyle style;
        private final Map<String, String> labels;
        private final Map<String, Long> strings = new LinkedHashMap<>();
        private final Map<String, Long> mappings = new LinkedHashMap<>();  // the program, then jar or module -> mapping id
        private final Map<Integer, Function> functions = new LinkedHashMap<>();  // by method id
        private final Map<Long, Location> locations = new LinkedHashMap<>();  // by (method id, line)

        private record Function(long id, long mapping) {}

        private record Location(long id, Function function, int line) {}

        Builder(Profile view, HumanNames.FrameStyle style, Map<String, String> labels) {
            this.view = view;
            this.r = view.recording();
            this.style = style;
            this.labels = labels;
            string("");
            // The first mapping is the profile's main binary, which pprof's header names ("File:"): the program.
            String program = r.info().get(RecordingFormat.INFO_PROGRAM);
            if (program != null) mappings.put(program, 1L);
        }

        /**
         * The sample types: for stack samples, {@code samples/count}, {@code cpu/nanoseconds} and,
         * for a wall-mode recording, {@code wall/nanoseconds}; for the event views a count and a
         * weight, named as Go's profiles name them ({@code alloc_objects}/{@code alloc_space},
         * {@code inuse_objects}/{@code inuse_space}, {@code contentions}/{@code delay}).
         */
        private String[][] types(boolean cpuMode) {
            return switch (view.view()) {
                case CPU, WALL -> cpuMode ? new String[][] {{"samples", "count"}, {"cpu", "nanoseconds"}}
                        : new String[][] {{"samples", "count"}, {"cpu", "nanoseconds"}, {"wall", "nanoseconds"}};
                case ALLOC -> new String[][] {{"alloc_objects", "count"}, {"alloc_space", "bytes"}};
                case LIVE -> new String[][] {{"inuse_objects", "count"}, {"inuse_space", "bytes"}};
                case LOCK -> new String[][] {{"contentions", "count"}, {"delay", "nanoseconds"}};
                case WAIT -> new String[][] {{"waits", "count"}, {"delay", "nanoseconds"}};
            };
        }

        byte[] profile() throws IOException {
            boolean samples = view.view() == View.CPU || view.view() == View.WALL;
            boolean cpuMode = r.cpuMode();
            long interval = interval();
            List<long[]> types = new ArrayList<>();
            String[][] named = types(cpuMode);
            for (String[] t : named) types.add(new long[] {string(t[0]), string(t[1])});
            long threadKey = string("thread");
            List<long[]> given = new ArrayList<>();
            for (Map.Entry<String, String> l : new java.util.TreeMap<>(labels).entrySet()) given.add(new long[] {string(l.getKey()), string(l.getValue())});
            ProtoOut p = new ProtoOut();
            for (long[] t : types) p.writeByteArray(1, message(m -> {
                m.writeInt64(1, t[0]);
                m.writeInt64(2, t[1]);
            }));
            writeSamples(p, samples, cpuMode, interval, threadKey, given);
            List<Long> comments = comments();
            writeMappings(p);
            writeLocations(p);
            writeFunctions(p);
            String main = named[named.length - 1][0];
            long defaultType = string(samples ? (cpuMode ? "cpu" : "wall") : main);
            long periodUnit = string(samples ? "nanoseconds" : named[1][1]);
            long periodType = string(samples ? (cpuMode ? "cpu" : "wall") : main);
            for (String s : strings.keySet()) p.writeString(6, s);
            p.writeInt64(9, r.startEpochNanos());
            p.writeInt64(10, Math.max(0, r.endEpochNanos() - r.startEpochNanos()));
            p.writeByteArray(11, message(m -> {
                m.writeInt64(1, periodType);
                m.writeInt64(2, periodUnit);
            }));
            p.writeInt64(12, samples ? interval : r.infoNumber(RecordingFormat.INFO_ALLOC_INTERVAL));
            for (long c : comments) p.writeInt64(13, c);
            p.writeInt64(14, defaultType);
            return p.toByteArray();
        }

        /** The Sample messages (field 2): each stack's locations, its values by type, its thread and the labels given. */
        private void writeSamples(ProtoOut p, boolean samples, boolean cpuMode, long interval, long threadKey, List<long[]> given) {
            Map<Profile.Stack, Long> ticksOf = new java.util.IdentityHashMap<>();
            for (Profile.Stack s : samples ? wholeSamples(ticksOf) : view.stacks()) {
                int[] frames = s.frames();
                if (frames.length == 0) continue;
                long[] ids = new long[frames.length];
                for (int i = 0; i < frames.length; i++) ids[i] = location(frames[i], s.lines()[i]);
                long ticks = samples ? ticksOf.getOrDefault(s, 1L) : 1;
                long[] values = !samples ? new long[] {1, s.weight()}
                        : cpuMode ? new long[] {1, s.weight()} : new long[] {ticks, s.weight(), ticks * interval};
                long thread = string(r.threadName(s.threadId()));
                p.writeByteArray(2, message(m -> {
                    m.writeByteArray(1, packed(ids));
                    m.writeByteArray(2, packed(values));
                    m.writeByteArray(3, message(l -> {
                        l.writeInt64(1, threadKey);
                        l.writeInt64(2, thread);
                    }));
                    for (long[] label : given) {
                        m.writeByteArray(3, message(l -> {
                            l.writeInt64(1, label[0]);
                            l.writeInt64(2, label[1]);
                        }));
                    }
                }));
            }
        }

        /** A comment per traced method with its figures, as string ids. */
        private List<Long> comments() {
            List<Long> comments = new ArrayList<>();
            for (MethodStats st : r.stats().values()) {
                comments.add(string("traced " + r.methodName(st.methodId()) + ": " + st.calls() + " calls"
                        + (st.timed() ? ", " + st.totalNanos() + " ns in all, " + st.minNanos() + " to " + st.maxNanos() + " ns each" : "")));
            }
            return comments;
        }

        /** The Mapping messages (field 3): the program, then a jar or module each. */
        private void writeMappings(ProtoOut p) {
            for (Map.Entry<String, Long> e : mappings.entrySet()) {
                long filename = string(e.getKey());
                p.writeByteArray(3, message(m -> {
                    m.writeUInt64(1, e.getValue());
                    m.writeInt64(5, filename);
                    m.writeBool(7, true);
                    m.writeBool(8, true);
                    m.writeBool(9, true);
                }));
            }
        }

        /** The Location messages (field 4): a method and line each. */
        private void writeLocations(ProtoOut p) {
            for (Location at : locations.values()) {
                p.writeByteArray(4, message(m -> {
                    m.writeUInt64(1, at.id());
                    m.writeUInt64(2, at.function().mapping());
                    m.writeByteArray(4, message(l -> {
                        l.writeUInt64(1, at.function().id());
                        l.writeInt64(2, at.line());
                    }));
                }));
            }
        }

        /** The Function messages (field 5): a method each, by the frame style's name and its full one. */
        private void writeFunctions(ProtoOut p) {
            for (Map.Entry<Integer, Function> e : functions.entrySet()) {
                String human = r.methodName(e.getKey());
                long name = string(HumanNames.frame(human, style));
                long system = string(human);
                long file = string(r.sources().getOrDefault(e.getKey(), ""));
                p.writeByteArray(5, message(m -> {
                    m.writeUInt64(1, e.getValue().id());
                    m.writeInt64(2, name);
                    m.writeInt64(3, system);
                    m.writeInt64(4, file);
                }));
            }
        }

        /**
         * Every stack sample, its weight its CPU time (a sample of a wall profile counts whatever
         * its CPU); those standing for more than one interval of wall time go into {@code ticksOf}.
         */
        private List<Profile.Stack> wholeSamples(Map<Profile.Stack, Long> ticksOf) {
            List<Profile.Stack> all = new ArrayList<>();
            for (Sample s : r.samples()) {
                Profile.Stack stack = new Profile.Stack(s.epochNanos(), s.threadId(), s.frames(), s.lines(), s.cpuNanos());
                all.add(stack);
                if (s.ticks() != 1) ticksOf.put(stack, s.ticks());
            }
            return all;
        }

        /** The sampling interval the recording names, in nanoseconds (0 when it names none). */
        private long interval() {
            try {
                return Long.parseLong(r.info().getOrDefault(RecordingFormat.INFO_INTERVAL, "0"));
            } catch (NumberFormatException e) {
                return 0;
            }
        }

        private long string(String s) {
            return strings.computeIfAbsent(s, k -> (long) strings.size());
        }

        /** The id of the location of {@code line} in a method, made on first use with its function and mapping. */
        private long location(int methodId, int line) {
            long key = ((long) methodId << 32) | (line & 0xffffffffL);
            return locations.computeIfAbsent(key, k -> new Location(locations.size() + 1L, function(methodId), line)).id();
        }

        private Function function(int methodId) {
            Function known = functions.get(methodId);
            if (known != null) return known;
            long mapping = mappings.computeIfAbsent(mappingOf(r.methodName(methodId)), k -> mappings.size() + 1L);
            Function f = new Function(functions.size() + 1L, mapping);
            functions.put(methodId, f);
            return f;
        }
    }

    /**
     * The jar or module a human method name starts with ({@code app.jar!com.foo.Bar.baz(...)},
     * {@code java.base/java.util.HashMap.put(...)}); "[classes]" for classes from a directory, and
     * for names tiprobe makes up, such as "[truncated]".
     */
    public static String mappingOf(String human) {
        String origin = HumanNames.originOf(human);
        return origin != null ? origin : "[classes]";
    }

    private interface Fields {
        void write(ProtoOut out);
    }

    private static byte[] message(Fields fields) {
        ProtoOut out = new ProtoOut();
        fields.write(out);
        return out.toByteArray();
    }

    /** A packed repeated field's payload: varints (ids unsigned, values int64: the same bytes). */
    private static byte[] packed(long[] values) {
        return message(out -> {
            for (long v : values) out.writeVarintNoTag(v);
        });
    }
}
