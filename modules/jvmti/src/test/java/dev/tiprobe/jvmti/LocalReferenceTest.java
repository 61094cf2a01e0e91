package dev.tiprobe.jvmti;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GetLoadedClasses, signatures and methods of every class while other threads run Java code and
 * the GC moves objects: no crash, no wrong class. The interpreter (-Xint) is where a JNI local
 * reference dies soonest, so that run is the strict one.
 */
class LocalReferenceTest {
    @Test
    void noWrongClassUnderGcInTheInterpreter() throws Exception {
        ChildJvm.Result r = ChildJvm.run(List.of("-Xint", "--enable-native-access=ALL-UNNAMED"),
                LocalReferenceStress.class.getName(), "8");
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("ok after"), r.output());
    }

    @Test
    void noWrongClassUnderGcCompiled() throws Exception {
        ChildJvm.Result r = ChildJvm.run(List.of("--enable-native-access=ALL-UNNAMED"),
                LocalReferenceStress.class.getName(), "5");
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("ok after"), r.output());
    }
}
