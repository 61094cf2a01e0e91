package dev.tiprobe.agent.classchange;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.Attributes;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.MethodModel;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which methods can loop by themselves, and around which places, read from their bytecodes as javac wrote them. */
class BytecodesTest {
    @SuppressWarnings("unused")  // read as class-file bytes, never run
    static final class Shapes {
        int field;

        int getter() {
            return field;
        }

        static int branches(int x) {
            return x > 0 ? x * 2 : -x;
        }

        static int forLoop(int n) {
            int sum = 0;
            for (int i = 0; i < n; i++) sum += i;
            return sum;
        }

        static void whileTrue() {
            while (true) Thread.onSpinWait();
        }

        static int switchInALoop(int n) {
            int sum = 0;
            do {
                switch (n % 4) {
                    case 0 -> sum += 1;
                    case 1 -> sum += 3;
                    case 2 -> sum += 7;
                    default -> sum += 11;
                }
            } while (--n > 0);
            return sum;
        }

        static void callsOnceThenLoops(Runnable r) {
            r.run();
            for (int i = 0; i < 3; i++) r.run();
            r.run();
        }

        static int switchOnly(int n) {
            return switch (n) {
                case 0 -> 1;
                case 5 -> 7;
                case 100 -> 9;
                default -> 2;
            };
        }
    }

    private static byte[] code(String method) throws IOException {
        try (InputStream in = BytecodesTest.class.getResourceAsStream("BytecodesTest$Shapes.class")) {
            ClassModel model = ClassFile.of().parse(in.readAllBytes());
            MethodModel m = model.methods().stream().filter(x -> x.methodName().equalsString(method)).findFirst().orElseThrow();
            return m.findAttribute(Attributes.code()).orElseThrow().codeArray();
        }
    }

    @Test
    void loopsAreTheMethodsThatJumpBack() throws IOException {
        assertFalse(Bytecodes.loopsAround(code("getter"), -1));
        assertFalse(Bytecodes.loopsAround(code("branches"), -1), "forward branches only");
        assertFalse(Bytecodes.loopsAround(code("switchOnly"), -1), "a switch's targets come after it");
        assertTrue(Bytecodes.loopsAround(code("forLoop"), -1));
        assertTrue(Bytecodes.loopsAround(code("whileTrue"), -1));
        assertTrue(Bytecodes.loopsAround(code("switchInALoop"), -1));
    }

    /** Where each {@code invokeinterface} of {@code code} is, in order. */
    private static List<Integer> interfaceCalls(byte[] code) {
        List<Integer> at = new ArrayList<>();
        for (int pc = 0; pc < code.length; pc += Bytecodes.length(code, pc)) if ((code[pc] & 0xff) == 0xb9) at.add(pc);
        return at;
    }

    @Test
    void anActivationIsInALoopWhereAJumpBackGoesRoundIt() throws IOException {
        byte[] code = code("callsOnceThenLoops");
        List<Integer> calls = interfaceCalls(code);
        assertEquals(3, calls.size(), "r.run() before, in and after the loop");
        assertFalse(Bytecodes.loopsAround(code, calls.get(0)), "a call before the loop is made once");
        assertTrue(Bytecodes.loopsAround(code, calls.get(1)), "the loop calls again");
        assertFalse(Bytecodes.loopsAround(code, calls.get(2)), "a call after the loop is made once");
        assertTrue(Bytecodes.loopsAround(code, -1), "a place not known: any jump back");
        assertFalse(Bytecodes.loopsAround(code("getter"), -1));
    }

    @Test
    void anActivationAtACallIsCallingAndElsewhereRunsItsOwnCode() throws IOException {
        byte[] code = code("callsOnceThenLoops");
        for (int call : interfaceCalls(code)) assertTrue(Bytecodes.callsAt(code, call), "invokeinterface at " + call);
        for (int pc = 0; pc < code.length; pc += Bytecodes.length(code, pc)) {
            if (!interfaceCalls(code).contains(pc)) assertFalse(Bytecodes.callsAt(code, pc), "no call at " + pc);
        }
        assertFalse(Bytecodes.callsAt(code("forLoop"), 0));
        assertTrue(Bytecodes.callsAt(code("whileTrue"), 0), "invokestatic Thread.onSpinWait");
        assertFalse(Bytecodes.callsAt(code, -1), "a native method's place");
        assertFalse(Bytecodes.callsAt(code, code.length), "past the code");
    }

    @Test
    void aJumpBackGoesRoundItsTargetAndItself() {
        byte[] code = {0x00, 0x00, (byte) 0xa7, (byte) 0xff, (byte) 0xfe, (byte) 0xb1};  // nop, nop, goto -2 (to 0), return
        assertTrue(Bytecodes.loopsAround(code, 0), "at the jump's target");
        assertTrue(Bytecodes.loopsAround(code, 2), "at the jump itself");
        assertFalse(Bytecodes.loopsAround(code, 5), "after it");
        byte[] wide = {0x00, (byte) 0xc8, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xb1};  // nop, goto_w -1 (to 0), return
        assertTrue(Bytecodes.loopsAround(wide, 0));
        assertFalse(Bytecodes.loopsAround(wide, 6));
    }

    @Test
    void aSubroutineReturnMakesAnyJumpBackCount() {
        // 0 jsr +6 (to 6); 3 goto -3 (to 0); 6 astore_0; 7 ret 0: the places after the loop may be in it, by the subroutine
        byte[] code = {(byte) 0xa8, 0x00, 0x06, (byte) 0xa7, (byte) 0xff, (byte) 0xfd, 0x4b, (byte) 0xa9, 0x00};
        assertTrue(Bytecodes.loopsAround(code, 7));
    }

    @Test
    void refusesBytesThatAreNoInstructions() {
        assertThrows(IllegalArgumentException.class, () -> Bytecodes.loopsAround(new byte[] {(byte) 0xa7, 0}, -1));  // goto, cut short
        assertThrows(IllegalArgumentException.class, () -> Bytecodes.loopsAround(new byte[] {(byte) 0xcb}, -1));  // no such opcode
    }
}
