package dev.tiprobe.agent.sink;

import java.time.Instant;

/**
 * The wall clock in epoch nanoseconds, as finely as the system gives it (microseconds or finer),
 * where a session pins its own stamps to the epoch. JFR's stamps are as fine: a clock pinned with
 * {@code System.currentTimeMillis()} ran up to a millisecond behind them, and a JFR sample taken
 * in the last millisecond before a stop could be left out as if taken after it.
 */
public final class EpochClock {
    private EpochClock() {
    }

    public static long nanosNow() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
