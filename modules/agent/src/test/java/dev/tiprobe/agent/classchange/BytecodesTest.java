package dev.tiprobe.agent.classchange;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.Attributes;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.MethodModel;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which methods can loop by themselves, read from their bytecodes as javac wrote them. */
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
        assertFalse(Bytecodes.hasBackwardBranch(code("getter")));
        assertFalse(Bytecodes.hasBackwardBranch(code("branches")), "forward branches only");
        assertFalse(Bytecodes.hasBackwardBranch(code("switchOnly")), "a switch's targets come after it");
        assertTrue(Bytecodes.hasBackwardBranch(code("forLoop")));
        assertTrue(Bytecodes.hasBackwardBranch(code("whileTrue")));
        assertTrue(Bytecodes.hasBackwardBranch(code("switchInALoop")));
    }

    @Test
    void refusesBytesThatAreNoInstructions() {
        assertThrows(IllegalArgumentException.class, () -> Bytecodes.hasBackwardBranch(new byte[] {(byte) 0xa7, 0}));  // goto, cut short
        assertThrows(IllegalArgumentException.class, () -> Bytecodes.hasBackwardBranch(new byte[] {(byte) 0xcb}));  // no such opcode
    }
}
