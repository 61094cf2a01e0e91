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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Every kind of event record reads back what it wrote: an event of each, written, read back and
 * written again, makes the same bytes. A new kind gets its example here, or this test fails.
 */
class RecordKindsTest {
    @TempDir
    Path dir;

    private static final long T = 1_000_000_000L;
    private static final Stack STACK = new Stack(new int[] {3, 2, 1, 99}, new int[] {30, 0, 10, 0}, 3, true);

    /** An event of each kind, with every field set that its codec writes. */
    private static final Map<RecordKind<?>, Object> EXAMPLES = new LinkedHashMap<>();

    static {
        EXAMPLES.put(Sample.KIND, new Sample(T + 1, 7, "worker", RecordingFormat.STATE_WAITING, 1_500, 4, STACK));
        EXAMPLES.put(ClassEvent.LOADED, new ClassEvent(T + 2, true, "com.foo.Plugin"));
        EXAMPLES.put(ClassEvent.UNLOADED, new ClassEvent(T + 3, false, "com.foo.Plugin"));
        EXAMPLES.put(Info.KIND, new Info(RecordingFormat.INFO_SAMPLE_MODE, "cpu"));
        EXAMPLES.put(MethodStats.KIND, new MethodStats(3, 12, true, true, 9_000, 100, 4_000, histogram()));
        EXAMPLES.put(Call.KIND, new Call(T + 4, 7, "worker", 3, 2, 4_000, true, List.of("x", "name"),
                List.of(new CapturedValue.Int(-4), new CapturedValue.Str("é\n")),
                new CapturedValue.Thrown("java.lang.IllegalStateException", "no"), STACK,
                List.of(new Callee("com.foo.Db.query() : int", 2, 1_500))));
        EXAMPLES.put(Signature.KIND, new Signature(3, "com.foo.M", "run", "(I)V", "app.jar!com.foo.M.run(int x) : void"));
        EXAMPLES.put(Skipped.KIND, new Skipped("com.foo.M", "abstractOne", "()V", "abstract"));
        EXAMPLES.put(ClassFailure.KIND, new ClassFailure("com.foo.Broken: instrumented code does not verify"));
        EXAMPLES.put(Removed.KIND, new Removed("com.foo.M.hot() : int", 4_100_000));
        EXAMPLES.put(Allocation.KIND, new Allocation(T + 5, 7, "worker", "byte[]", 1_024, 9, STACK));
        EXAMPLES.put(Freed.KIND, new Freed(9));
        EXAMPLES.put(LockWait.KIND, new LockWait(T + 6, 7, "worker", RecordingFormat.LOCK_PARKED, "java.util.concurrent.locks.ReentrantLock$NonfairSync",
                5_000_000, STACK, 8, "holder", new Stack(new int[] {1}, new int[] {12}, 1, false)));
        EXAMPLES.put(AllocInterval.KIND, new AllocInterval(T + 7, 8_192));
        EXAMPLES.put(Deadlock.KIND, new Deadlock(T + 8, List.of(
                new Deadlock.Waiter(7, "left", "java.lang.Object@1a", 8, List.of("java.lang.Object@2b"), STACK),
                new Deadlock.Waiter(8, "right", "java.lang.Object@2b", 7, List.of("java.lang.Object@1a"), Stack.NONE))));
    }

    private static long[] histogram() {
        long[] h = new long[64];
        h[6] = 2;
        h[12] = 10;
        return h;
    }

    @Test
    void everyKindHasAnExampleAndANumberOfItsOwn() {
        assertEquals(RecordKinds.ALL, List.copyOf(EXAMPLES.keySet()), "each kind of RecordKinds.ALL, in its order, has an example here");
        for (int definition : new int[] {RecordingFormat.METHOD, RecordingFormat.THREAD, RecordingFormat.SOURCE, RecordingFormat.TYPE,
                RecordingFormat.STACK}) {
            assertNull(RecordKinds.of(definition), "record " + definition + " is a definition");
        }
    }

    @Test
    void everyKindReadsBackWhatItWrote() throws IOException {
        for (RecordKind<?> kind : RecordKinds.ALL) {
            byte[] written = written(kind, EXAMPLES.get(kind));
            Recording r = RecordingReader.read(written);
            assertNull(r.damage(), kind.toString());
            List<?> back = kind.type() == MethodStats.class ? List.copyOf(r.stats().values()) : r.records(kind.type());
            assertEquals(1, back.size(), kind.toString());
            assertArrayEquals(written, written(kind, back.getFirst()), kind + ": read back and written again, the same bytes");
        }
    }

    @Test
    void aStackReadBackHasItsTruncatedRoot() throws IOException {
        Recording r = RecordingReader.read(written(Sample.KIND, EXAMPLES.get(Sample.KIND)));
        Sample s = r.samples().getFirst();
        assertArrayEquals(new int[] {3, 2, 1, Stack.TRUNCATED}, s.frames(), "the stack's depth, then the root that says it was cut");
        assertArrayEquals(new int[] {30, 0, 10, 0}, s.lines());
        assertEquals("worker", s.threadName(), "the thread's name comes with its event");
        assertEquals(4, s.ticks());
        Allocation a = RecordingReader.read(written(Allocation.KIND, EXAMPLES.get(Allocation.KIND))).events().allocations().getFirst();
        assertEquals("byte[]", a.typeName());
        assertFalse(a.typeId() == 0, "the recording's id of the class");
    }

    @SuppressWarnings("unchecked")
    private <E> byte[] written(RecordKind<E> kind, Object event) throws IOException {
        Path file = Files.createTempFile(dir, "kind", RecordingFormat.EXTENSION);
        List<String> names = new ArrayList<>(List.of("", "com.foo.A.a() : void", "com.foo.B.b() : void", "com.foo.M.run(int) : void"));
        try (RecordingWriter w = RecordingWriter.create(file, id -> id < names.size() ? names.get(id) : "m" + id)) {
            w.write(T, kind, (E) event);
        }
        return Files.readAllBytes(file);
    }
}
