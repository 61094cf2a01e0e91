package dev.tiprobe.jvmti;

import dev.tiprobe.testing.Command;
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
        Command.Run r = Command.onTestClassPath(List.of("-Xint", "--enable-native-access=ALL-UNNAMED"),
                LocalReferenceStress.class.getName(), "8");
        assertEquals(0, r.exit(), r.all());
        assertTrue(r.all().contains("ok after"), r.all());
    }

    @Test
    void noWrongClassUnderGcCompiled() throws Exception {
        Command.Run r = Command.onTestClassPath(List.of("--enable-native-access=ALL-UNNAMED"),
                LocalReferenceStress.class.getName(), "5");
        assertEquals(0, r.exit(), r.all());
        assertTrue(r.all().contains("ok after"), r.all());
    }
}
