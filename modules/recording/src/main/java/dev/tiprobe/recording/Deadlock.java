package dev.tiprobe.recording;

import java.util.List;

/**
 * Threads found waiting on each other in a cycle, so that none of them can go on: each thread's
 * lock it waits for (a monitor or an ownable {@code java.util.concurrent} synchronizer, named
 * {@code class@identityHash} as the JDK's thread dumps name it), the thread holding that lock,
 * the locks the thread holds, and its stack when the cycle was found.
 */
public record Deadlock(List<Waiter> threads) {
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
}
