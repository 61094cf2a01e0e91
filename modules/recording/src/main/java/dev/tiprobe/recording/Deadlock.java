package dev.tiprobe.recording;

import dev.tiprobe.recording.Wire.Malformed;

import java.util.ArrayList;
import java.util.List;

/**
 * Threads found at {@code epochNanos} waiting on each other in a cycle, so that none of them can
 * go on, each once: each thread's lock it waits for (a monitor or an ownable {@code
 * java.util.concurrent} synchronizer, named {@code class@identityHash} as the JDK's thread dumps
 * name it), the thread holding that lock, the locks the thread holds, and its stack when the cycle
 * was found.
 */
public record Deadlock(long epochNanos, List<Waiter> threads) {
    public Deadlock {
        threads = List.copyOf(threads);
    }

    /** {@code 'left' waits for java.lang.Object@1b6d3586 held by 'right'}: one thread of a cycle, as status and the text report say it. */
    public static String waits(String waiter, String lock, String holder) {
        return "'" + waiter + "' waits for " + lock + " held by '" + holder + "'";
    }

    /** One thread of the cycle; {@code ownerId} holds {@code waitsFor}. */
    public record Waiter(long threadId, String threadName, String waitsFor, long ownerId, List<String> held, Stack stack) {
        public Waiter {
            held = List.copyOf(held);
        }
    }

    /**
     * {@code varlong:nanosAfterStart varint:n (varlong:threadId string:waitsFor varlong:ownerThreadId
     * varint:heldCount string:held * heldCount stack) * n}; version 13 on.
     */
    public static final RecordKind<Deadlock> KIND = new RecordKind<>(20, Deadlock.class, RecordingFormat.PARKS_SINCE) {
        @Override
        public void write(Deadlock d, RecordOut out) {
            out.time(d.epochNanos);
            out.varlong(d.threads.size());
            for (Waiter w : d.threads) {
                out.thread(w.threadId, w.threadName);
                out.string(w.waitsFor);
                out.varlong(w.ownerId);
                out.varlong(w.held.size());
                for (String held : w.held) out.string(held);
                out.stack(w.stack);
            }
        }

        @Override
        public Deadlock read(RecordIn in) throws Malformed {
            long time = in.time();
            int n = in.count("deadlock size", 1);
            List<Waiter> threads = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                long thread = in.thread();
                String waitsFor = in.string();
                long owner = in.varlong();
                int heldCount = in.count("count of locks held", 1);
                List<String> held = new ArrayList<>();
                for (int h = 0; h < heldCount; h++) held.add(in.string());
                threads.add(new Waiter(thread, in.threadName(thread), waitsFor, owner, held, in.stack()));
            }
            return new Deadlock(time, threads);
        }
    };
}
