package dev.tiprobe.recording;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** JFR's report of a class-initialization wait (seen on JDK 25: a wait on int[] with the using method on top) against a program's own waits. */
class ClassInitWaitsTest {
    @Test
    void aWaitOnIntArrayOutsideObjectWaitIsAClassInitialization() {
        assertTrue(ClassInitWaits.is("int[]", new Parks.Frame("app.Loop", "use")));
        assertFalse(ClassInitWaits.is("int[]", new Parks.Frame("java.lang.Object", "wait0")), "the program's own wait on an int[]");
        assertFalse(ClassInitWaits.is("app.Ledger", new Parks.Frame("app.Loop", "use")));
        assertFalse(ClassInitWaits.is("int[]", null));
    }
}
