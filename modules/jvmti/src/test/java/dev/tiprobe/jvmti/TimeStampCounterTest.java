package dev.tiprobe.jvmti;

import org.junit.jupiter.api.Test;

import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TimeStampCounterTest {
    /** The machine code is what its comment says, byte for byte: rdtsc; shl rdx,32; or rax,rdx; ret. */
    @Test
    void theCodeBytesAreRdtscShiftOrReturn() {
        assertEquals("0f31" + "48c1e220" + "4809d0" + "c3", HexFormat.of().formatHex(TimeStampCounter.READ_TSC));
    }

    /**
     * Where the CPU reports an invariant counter (this machine does), the reader exists, counts
     * upwards, and runs at the rate the kernel's clock measures; elsewhere there is a reason.
     */
    @Test
    void theReaderCountsUpAtASteadyRateOrSaysWhyThereIsNone() throws Throwable {
        Optional<MethodHandle> reader = TimeStampCounter.reader();
        String cpuinfo = Files.readString(Path.of("/proc/cpuinfo"));
        boolean offered = System.getProperty("os.arch").matches("amd64|x86_64") && cpuinfo.contains(" constant_tsc")
                && cpuinfo.contains(" nonstop_tsc");
        if (!offered) {
            assertTrue(reader.isEmpty());
            assertNotNull(TimeStampCounter.unavailableReason());
            return;
        }
        assertTrue(reader.isPresent(), TimeStampCounter.unavailableReason());
        assertNull(TimeStampCounter.unavailableReason());
        MethodHandle read = reader.get();
        long previous = (long) read.invokeExact();
        for (int i = 0; i < 1000; i++) {
            long now = (long) read.invokeExact();
            assertTrue(now >= previous, "the counter never goes back");
            previous = now;
        }
        double a = TimeStampCounter.ticksPerNanosecond(read);
        double b = TimeStampCounter.ticksPerNanosecond(read);
        assertTrue(Math.abs(a - b) / a < 0.05, "one rate: " + a + " and " + b + " ticks/ns");
    }
}
