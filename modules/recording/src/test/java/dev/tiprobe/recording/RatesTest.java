package dev.tiprobe.recording;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RatesTest {
    @Test
    void everyRateShowsItsSizeNotZero() {
        assertEquals("4.1M calls/s", Rates.callsPerSecond(4_100_000));
        assertEquals("1.0M calls/s", Rates.callsPerSecond(999_990));
        assertEquals("52k calls/s", Rates.callsPerSecond(52_300));
        assertEquals("3.2k calls/s", Rates.callsPerSecond(3_240));
        assertEquals("900 calls/s", Rates.callsPerSecond(900));
        assertEquals("0 calls/s", Rates.callsPerSecond(0));
    }
}
