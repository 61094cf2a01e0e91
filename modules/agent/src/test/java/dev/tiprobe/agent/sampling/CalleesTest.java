package dev.tiprobe.agent.sampling;

import dev.tiprobe.jvmti.Jvmti;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The classes a method calls, read from the bytecodes and constant pool JVMTI gives for it in this JVM. */
class CalleesTest {
    static final class Helper {
        static int twice(int x) {
            return 2 * x;
        }
    }

    /** Switches of both kinds, a long constant, an interface call and an array clone, before and between the calls. */
    static String mixed(int k, List<String> out) {
        long big = 1L << 40;
        int a0 = 0, a1 = 1, a2 = 2, a3 = 3, a4 = 4, a5 = 5, a6 = 6, a7 = 7, a8 = 8, a9 = 9;
        switch (k) {
            case 0, 1, 2, 3 -> k = Helper.twice(k);
            default -> k++;
        }
        switch (k) {
            case 10 -> k = 1;
            case 1000 -> k = 2;
            case 100000 -> k = 3;
            default -> k += a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9;
        }
        out.add(String.valueOf(k + big));
        int[] copy = new int[] {k}.clone();  // a call on an array class: left out
        return Integer.toString(copy[0]);
    }

    @Test
    void namesTheClassesAMethodCallsInTheOrderMet() throws Exception {
        Jvmti jvmti = Jvmti.get();
        mixed(1, new ArrayList<>());
        long method = 0;
        for (long id : jvmti.classMethods(CalleesTest.class)) {
            if (jvmti.methodName(id).name().equals("mixed")) method = id;
        }
        Jvmti.ConstantPool pool = jvmti.constantPool(CalleesTest.class);
        Set<String> callees = Callees.of(jvmti.bytecodes(method), pool.count(), pool.bytes());
        assertEquals(List.of(Helper.class.getName(), "java.lang.String", "java.util.List", "java.lang.Integer"), List.copyOf(callees));
    }

    @Test
    void refusesBytesThatAreNotAConstantPool() {
        assertThrows(IllegalArgumentException.class, () -> Callees.of(new byte[] {(byte) 0xb8, 0, 1}, 2, new byte[] {99, 0, 0}));
    }
}
