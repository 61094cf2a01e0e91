package dev.tiprobe.agent.classchange;

/**
 * Walks a method's bytecodes as JVMTI's GetBytecodes gives them (class-file form): the length of
 * each instruction, and whether the method can loop by itself, or around a given place.
 */
public final class Bytecodes {
    private Bytecodes() {}

    /**
     * Whether a jump back in {@code code} goes round {@code location} (a bytecode index): an
     * activation standing there, waiting for a callee or running, will pass that place again
     * before it returns; one standing elsewhere returns as soon as its callees do, or runs the
     * rest of its code once. A location below 0 (not known) asks for any jump back (a loop of the
     * method's own; one without returns as soon as its callees do), as does a method with a
     * subroutine return ({@code ret}, old class files' {@code finally}), whose jumps the bytes
     * alone do not tell.
     *
     * @throws IllegalArgumentException when the bytes are not what the class-file format says
     */
    public static boolean loopsAround(byte[] code, long location) {
        int pc = 0;
        boolean subroutine = false;
        while (pc < code.length) {
            int op = code[pc] & 0xff;
            int length = checkedLength(code, pc);
            if (op == 0xa9 || op == 0xc4 && (code[pc + 1] & 0xff) == 0xa9) subroutine = true;  // ret, wide ret
            if ((op >= 0x99 && op <= 0xa8) || op == 0xc6 || op == 0xc7) {  // if*, goto, jsr, ifnull, ifnonnull
                if (goesRound(pc, (short) u2(code, pc + 1), location)) return true;
            } else if (op == 0xc8 || op == 0xc9) {  // goto_w, jsr_w
                if (goesRound(pc, u4(code, pc + 1), location)) return true;
            } else if (op == 0xaa || op == 0xab) {  // a switch: its default and every target
                int at = (pc + 4) & ~3;
                if (goesRound(pc, u4(code, at), location)) return true;
                int targets = op == 0xaa ? u4(code, at + 8) - u4(code, at + 4) + 1 : u4(code, at + 4);
                for (int i = 0; i < targets; i++) {
                    if (goesRound(pc, u4(code, op == 0xaa ? at + 12 + 4 * i : at + 12 + 8 * i), location)) return true;
                }
            }
            pc += length;
        }
        return subroutine && location >= 0 && loopsAround(code, -1);
    }

    /**
     * Whether the instruction at {@code location} calls a method (the invoke instructions): an
     * activation found standing there is calling, or has just been returned to, not running code
     * of its own. A location that is no instruction's start, or past the code, is not a call.
     */
    public static boolean callsAt(byte[] code, long location) {
        if (location < 0 || location >= code.length) return false;
        int op = code[(int) location] & 0xff;
        return op >= 0xb6 && op <= 0xba;  // invokevirtual, invokespecial, invokestatic, invokeinterface, invokedynamic
    }

    /** Whether a jump at {@code pc} by {@code offset} goes back, over {@code location} when that is known. */
    private static boolean goesRound(int pc, int offset, long location) {
        return offset < 0 && (location < 0 || pc + offset <= location && location <= pc);
    }

    /** The length of the instruction at {@code pc}, operands included. */
    public static int length(byte[] code, int pc) {
        int op = code[pc] & 0xff;
        if (op == 0xaa || op == 0xab) {  // tableswitch, lookupswitch: padded to four bytes from the method's start
            int at = (pc + 4) & ~3;
            if (op == 0xaa) return at - pc + 12 + 4 * (u4(code, at + 8) - u4(code, at + 4) + 1);
            return at - pc + 8 + 8 * u4(code, at + 4);
        }
        if (op == 0xc4) return (code[pc + 1] & 0xff) == 0x84 ? 6 : 4;  // wide iinc, or wide load/store/ret
        int n = LENGTHS[op];
        if (n == 0) throw new IllegalArgumentException("opcode " + op + " at " + pc);
        return n;
    }

    /** As {@link #length}, refusing a switch whose bounds make no instruction (which would walk in place). */
    public static int checkedLength(byte[] code, int pc) {
        int n = length(code, pc);
        if (n <= 0 || pc + n > code.length) throw new IllegalArgumentException("instruction at " + pc + " runs past the code");
        return n;
    }

    private static final byte[] LENGTHS = new byte[256];

    static {
        java.util.Arrays.fill(LENGTHS, 0, 0xca + 1, (byte) 1);
        for (int op : new int[] {0x10, 0x12, 0x15, 0x16, 0x17, 0x18, 0x19, 0x36, 0x37, 0x38, 0x39, 0x3a, 0xa9, 0xbc}) LENGTHS[op] = 2;
        for (int op = 0x99; op <= 0xa8; op++) LENGTHS[op] = 3;
        for (int op = 0xb2; op <= 0xb8; op++) LENGTHS[op] = 3;
        for (int op : new int[] {0x11, 0x13, 0x14, 0x84, 0xbb, 0xbd, 0xc0, 0xc1, 0xc6, 0xc7}) LENGTHS[op] = 3;
        for (int op : new int[] {0xb9, 0xba, 0xc8, 0xc9}) LENGTHS[op] = 5;
        LENGTHS[0xc5] = 4;
        LENGTHS[0xaa] = 0;  // variable: handled above
        LENGTHS[0xab] = 0;
        LENGTHS[0xc4] = 0;
        LENGTHS[0xfe] = 1;
        LENGTHS[0xff] = 1;
    }

    private static int u2(byte[] b, int at) {
        return (b[at] & 0xff) << 8 | b[at + 1] & 0xff;
    }

    private static int u4(byte[] b, int at) {
        return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8 | b[at + 3] & 0xff;
    }
}
