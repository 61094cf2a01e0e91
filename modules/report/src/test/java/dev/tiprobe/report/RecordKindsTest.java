package dev.tiprobe.report;

import dev.tiprobe.recording.AllocInterval;
import dev.tiprobe.recording.Allocation;
import dev.tiprobe.recording.Call;
import dev.tiprobe.recording.Callee;
import dev.tiprobe.recording.CapturedValue;
import dev.tiprobe.recording.ClassEvent;
import dev.tiprobe.recording.ClassFailure;
import dev.tiprobe.recording.Deadlock;
import dev.tiprobe.recording.Freed;
import dev.tiprobe.recording.Info;
import dev.tiprobe.recording.LockWait;
import dev.tiprobe.recording.MethodStats;
import dev.tiprobe.recording.RecordKind;
import dev.tiprobe.recording.RecordKinds;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.RecordingWriter;
import dev.tiprobe.recording.Removed;
import dev.tiprobe.recording.Sample;
import dev.tiprobe.recording.Signature;
import dev.tiprobe.recording.Skipped;
import dev.tiprobe.recording.Stack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Every kind of event record reads back what it wrote, and what recordings written before hold:
 * examples of each kind, written now, make the same bytes as those read from a committed recording
 * of them and written again, and as themselves read back and written again. A new kind gets its
 * examples here, or this test fails; a kind whose fields changed needs the committed recording
 * written again ({@code -Dtiprobe.kinds.write=$PWD/modules/report/src/test/resources/kinds.tpr}),
 * which says the format changed: its version goes up and the reader keeps reading the old one.
 */
class RecordKindsTest {
    @TempDir
    Path dir;

    private static final String WRITE = System.getProperty("tiprobe.kinds.write");
    private static final long T = 1_000_000_000L;
    private static final Stack CUT = new Stack(new int[] {3, 2, 1, 99}, new int[] {30, 0, 10, 0}, 3, true);
    private static final Stack WHOLE = new Stack(new int[] {2, 1}, new int[] {12, 0}, 2, false);
    private static final List<String> METHODS = List.of("", "com.foo.A.a() : void", "com.foo.B.b() : void", "com.foo.M.run(int) : void");

    /** Events of each kind, in the order of {@link RecordKinds#ALL}, covering each branch of its codec. */
    private static final Map<RecordKind<?>, List<?>> EXAMPLES = new LinkedHashMap<>();

    static {
        EXAMPLES.put(Sample.KIND, List.of(new Sample(T + 1, 7, "worker", RecordingFormat.STATE_WAITING, 1_500, 4, CUT),
                new Sample(T + 2, 8, "main", RecordingFormat.STATE_RUNNABLE, 0, 1, WHOLE)));
        EXAMPLES.put(ClassEvent.LOADED, List.of(new ClassEvent(T + 3, true, "com.foo.Plugin")));
        EXAMPLES.put(ClassEvent.UNLOADED, List.of(new ClassEvent(T + 4, false, "com.foo.Plugin")));
        EXAMPLES.put(Info.KIND, List.of(new Info(RecordingFormat.INFO_ALLOC_INTERVAL, "1024"),
                new Info(RecordingFormat.INFO_SAMPLE_MODE, "cpu")));
        EXAMPLES.put(MethodStats.KIND, List.of(new MethodStats(1, 5, true, true, 500, 100, 100, histogram()),
                new MethodStats(2, 40, false, false, -1, -1, -1, new long[0]),
                new MethodStats(3, 12, false, true, 9_000, 100, 4_000, histogram())));
        EXAMPLES.put(Call.KIND, List.of(
                new Call(T + 5, 7, "worker", 3, 2, 4_000, true, List.of("x", "name"),
                        List.of(new CapturedValue.Int(-4), new CapturedValue.Str("é\n")),
                        new CapturedValue.Thrown("java.lang.IllegalStateException", "no"), CUT,
                        List.of(new Callee("com.foo.Db.query() : int", 2, 1_500))),
                new Call(T + 6, 8, "main", 3, 0, 900, false, List.of(), List.of(), new CapturedValue.Str("ok"), null, List.of()),
                new Call(T + 7, 8, "main", 2, 1, -1, false, List.of("n"), List.of(new CapturedValue.Int(3)), CapturedValue.NONE,
                        null, List.of())));
        EXAMPLES.put(Signature.KIND, List.of(new Signature(3, "com.foo.M", "run", "(I)V", "app.jar!com.foo.M.run(int x) : void")));
        EXAMPLES.put(Skipped.KIND, List.of(new Skipped("com.foo.M", "abstractOne", "()V", "abstract")));
        EXAMPLES.put(ClassFailure.KIND, List.of(new ClassFailure("com.foo.Broken: instrumented code does not verify")));
        EXAMPLES.put(Removed.KIND, List.of(new Removed("com.foo.M.hot() : int", 4_100_000)));
        EXAMPLES.put(Allocation.KIND, List.of(new Allocation(T + 8, 7, "worker", "byte[]", 1_024, 9, CUT),
                new Allocation(T + 9, 8, "main", "com.foo.Blob", 48, 0, WHOLE)));
        EXAMPLES.put(Freed.KIND, List.of(new Freed(9)));
        EXAMPLES.put(LockWait.KIND, List.of(
                new LockWait(T + 10, 7, "worker", RecordingFormat.LOCK_PARKED, "java.util.concurrent.locks.ReentrantLock", 5_000_000,
                        CUT, 8, "main", WHOLE),
                new LockWait(T + 11, 8, "main", RecordingFormat.LOCK_WAIT, "byte[]", 20_000_000, WHOLE, 0, null, null)));
        EXAMPLES.put(AllocInterval.KIND, List.of(new AllocInterval(T + 12, 8_192)));
        EXAMPLES.put(Deadlock.KIND, List.of(new Deadlock(T + 13, List.of(
                new Deadlock.Waiter(7, "worker", "java.lang.Object@1a", 8, List.of("java.lang.Object@2b"), CUT),
                new Deadlock.Waiter(8, "main", "java.lang.Object@2b", 7, List.of("java.lang.Object@1a"), Stack.NONE)))));
        EXAMPLES.put(Call.EVICTED, List.of(new Call.Id(7, T + 2, 1)));  // no call above: those stay among the calls read
    }

    private static long[] histogram() {
        long[] h = new long[64];
        h[6] = 2;
        h[12] = 10;
        return h;
    }

    @Test
    void everyKindHasExamplesAndANumberOfItsOwn() {
        assertEquals(RecordKinds.ALL, List.copyOf(EXAMPLES.keySet()), "each kind of RecordKinds.ALL, in its order, has examples here");
        for (int definition : new int[] {RecordingFormat.METHOD, RecordingFormat.THREAD, RecordingFormat.SOURCE, RecordingFormat.TYPE,
                RecordingFormat.STACK}) {
            assertNull(RecordKinds.of(definition), "record " + definition + " is a definition");
        }
    }

    /** The committed recording, written by an earlier tiprobe, reads back into the examples: the format did not change under them. */
    @Test
    void whatWasWrittenBeforeReadsBackTheSame() throws IOException {
        byte[] now = written(EXAMPLES);
        if (WRITE != null) Files.write(Path.of(WRITE), now);
        byte[] committed;
        try (InputStream in = RecordKindsTest.class.getResourceAsStream("/kinds.tpr")) {
            assertNotNull(in, "kinds.tpr is committed beside this test");
            committed = in.readAllBytes();
        }
        Recording before = RecordingReader.read(committed);
        assertNull(before.damage());
        assertArrayEquals(now, written(readBack(before)), "the committed recording, read and written again, is what the examples make now");
    }

    @Test
    void everyKindReadsBackWhatItWrote() throws IOException {
        byte[] written = written(EXAMPLES);
        Recording r = RecordingReader.read(written);
        assertNull(r.damage());
        Map<RecordKind<?>, List<?>> back = readBack(r);
        for (RecordKind<?> kind : RecordKinds.ALL) assertEquals(EXAMPLES.get(kind).size(), back.get(kind).size(), kind.toString());
        assertArrayEquals(written, written(back), "read back and written again, the same bytes");
    }

    @Test
    void aStackReadBackHasItsTruncatedRoot() throws IOException {
        Recording r = RecordingReader.read(written(EXAMPLES));
        Sample s = r.samples().getFirst();
        assertArrayEquals(new int[] {3, 2, 1, Stack.TRUNCATED}, s.frames(), "the stack's depth, then the root that says it was cut");
        assertArrayEquals(new int[] {30, 0, 10, 0}, s.lines());
        assertEquals(4, s.ticks());
        assertArrayEquals(new int[] {2, 1}, r.samples().get(1).frames(), "a whole stack has no such root");
        assertEquals(1_024, r.events().allocations().getFirst().intervalBytes(), "the interval asked: the change came after the sample");
    }

    /** Names are defined once a file: events of a later chunk get theirs from the chunk that defined them. */
    @Test
    void anEventOfALaterChunkHasItsNames() throws IOException {
        Path file = dir.resolve("two.tpr");
        try (RecordingWriter w = RecordingWriter.create(file, id -> METHODS.get(id))) {
            w.write(T, Allocation.KIND, new Allocation(T, 7, "worker", "byte[]", 64, 0, WHOLE));
            w.flush();
            w.write(T + 1, Allocation.KIND, new Allocation(T + 1, 7, "worker", "byte[]", 64, 0, WHOLE));
            w.write(T + 2, LockWait.KIND, new LockWait(T + 2, 8, "main", RecordingFormat.LOCK_CONTENDED, "byte[]", 10, WHOLE, 7, "worker",
                    WHOLE));
        }
        Recording r = RecordingReader.read(file);
        assertEquals(2, r.chunks());
        Allocation later = r.events().allocations().get(1);
        assertEquals("worker", later.threadName());
        assertEquals("byte[]", later.typeName());
        assertNotEquals(0, later.typeId(), "the recording's id of the class");
        assertEquals("worker", r.events().locks().getFirst().ownerName());
    }

    @Test
    void aKindNotListedIsNotWritten() throws IOException {
        RecordKind<Info> unlisted = new RecordKind<>(100, Info.class) {
            @Override
            public void write(Info event, dev.tiprobe.recording.RecordOut out) {
                Info.KIND.write(event, out);
            }

            @Override
            public Info read(dev.tiprobe.recording.RecordIn in) throws dev.tiprobe.recording.Wire.Malformed {
                return Info.KIND.read(in);
            }
        };
        try (RecordingWriter w = RecordingWriter.create(dir.resolve("unlisted.tpr"), id -> null)) {
            assertThrows(IllegalArgumentException.class, () -> w.write(T, unlisted, new Info("k", "v")), "no reader would read it");
            assertThrows(IllegalArgumentException.class, () -> w.write(T, ClassEvent.LOADED, new ClassEvent(T, false, "A")),
                    "an unload written as a load");
        }
    }

    /** Each kind's events as a user of the recording gets them, by the view that holds them. */
    private static Map<RecordKind<?>, List<?>> readBack(Recording r) {
        Map<RecordKind<?>, List<?>> back = new LinkedHashMap<>();
        back.put(Sample.KIND, r.samples());
        back.put(ClassEvent.LOADED, r.classEvents().stream().filter(ClassEvent::load).toList());
        back.put(ClassEvent.UNLOADED, r.classEvents().stream().filter(e -> !e.load()).toList());
        back.put(Info.KIND, r.info().entrySet().stream().map(e -> new Info(e.getKey(), e.getValue())).sorted(Comparator.comparing(Info::key))
                .toList());
        back.put(MethodStats.KIND, r.stats().values().stream().sorted(Comparator.comparingInt(MethodStats::methodId)).toList());
        back.put(Call.KIND, r.calls());
        back.put(Signature.KIND, r.tracing().signatures().values().stream().sorted(Comparator.comparingInt(Signature::methodId)).toList());
        back.put(Skipped.KIND, r.tracing().skipped());
        back.put(ClassFailure.KIND, r.tracing().classFailures().stream().map(ClassFailure::new).toList());
        back.put(Removed.KIND, r.tracing().removed());
        back.put(Allocation.KIND, r.events().allocations());
        back.put(Freed.KIND, r.events().freed().stream().sorted().map(Freed::new).toList());
        back.put(LockWait.KIND, r.events().locks());
        back.put(AllocInterval.KIND, r.records(AllocInterval.class));
        back.put(Deadlock.KIND, r.events().deadlocks());
        back.put(Call.EVICTED, r.records(Call.Id.class));
        assertEquals(RecordKinds.ALL, List.copyOf(back.keySet()), "each kind is read back here");
        return back;
    }

    /** A recording of one chunk holding {@code events}, kind after kind, as the writer writes them. */
    @SuppressWarnings("unchecked")
    private byte[] written(Map<RecordKind<?>, List<?>> events) throws IOException {
        Path file = Files.createTempFile(dir, "kinds", RecordingFormat.EXTENSION);
        try (RecordingWriter w = RecordingWriter.create(file, id -> METHODS.get(id))) {
            for (Map.Entry<RecordKind<?>, List<?>> e : events.entrySet()) {
                for (Object event : e.getValue()) w.write(T, (RecordKind<Object>) e.getKey(), event);
            }
        }
        return Files.readAllBytes(file);
    }
}
