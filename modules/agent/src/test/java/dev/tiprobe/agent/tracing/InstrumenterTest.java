package dev.tiprobe.agent.tracing;

import dev.tiprobe.filter.MethodFilter;
import dev.tiprobe.options.AgentOptions.TraceMode;
import dev.tiprobe.testing.GeneratedClasses;
import org.junit.jupiter.api.Test;

import java.lang.classfile.ClassFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InstrumenterTest {
    /**
     * While a session started in premain hands over from java.lang.instrument to its JVMTI hook,
     * both see each class that loads: the second must not add a second probe (doubled counts).
     */
    @Test
    void aClassThatAlreadyCallsTheProbeIsLeftAlone() {
        for (TraceMode mode : TraceMode.values()) {
            Instrumenter instrumenter = new Instrumenter(MethodFilter.parse("gen.**"), mode,
                    (name, loader, source, file) -> method -> 0, Instrumenter.LoadedClasses.NONE);
            byte[] original = GeneratedClasses.classFile("gen.Twice");
            assertFalse(Instrumenter.callsTheProbe(ClassFile.of().parse(original)));
            Instrumenter.Result first = instrumenter.transform(null, null, original, false);
            assertNotNull(first.bytes(), mode + ": the original is instrumented");
            assertEquals(3, first.instrumented(), mode + ": <init>, work and twice");
            assertTrue(Instrumenter.callsTheProbe(ClassFile.of().parse(first.bytes())));
            Instrumenter.Result second = instrumenter.transform(null, null, first.bytes(), false);
            assertNull(second.bytes(), mode + ": instrumented once, not twice");
            assertEquals(0, second.instrumented());
        }
    }
}
