package dev.tiprobe.agent.sampling;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The classes whose methods a method's bytecode invokes, read from its bytecodes and its class's
 * constant pool as JVMTI gives them (GetBytecodes, GetConstantPool: class-file form, one
 * numbering): what the JIT may have inlined into it. Array classes are left out.
 */
final class Callees {
    private Callees() {}

    private static final int UTF8 = 1, CLASS = 7, METHOD_REF = 10, INTERFACE_METHOD_REF = 11;

    /**
     * Binary names ({@code a.b.C}) of the classes owning the methods {@code code} invokes (virtual,
     * special, static and interface calls), in the order first met.
     *
     * @throws IllegalArgumentException when the bytes are not what the class-file format says
     * @throws IndexOutOfBoundsException where they point outside themselves
     */
    static Set<String> of(byte[] code, int poolCount, byte[] pool) {
        int[] offsets = entryOffsets(poolCount, pool);
        Set<String> owners = new LinkedHashSet<>();
        int pc = 0;
        while (pc < code.length) {
            int op = code[pc] & 0xff;
            if (op >= 0xb6 && op <= 0xb9) {
                int ref = u2(code, pc + 1);
                String owner = ownerOf(ref, offsets, pool);
                if (owner != null && !owner.startsWith("[")) owners.add(owner.replace('/', '.'));
            }
            pc += checkedLength(code, pc);
        }
        return owners;
    }

    /** The class name a Methodref or InterfaceMethodref at {@code ref} names, or null for another kind. */
    private static String ownerOf(int ref, int[] offsets, byte[] pool) {
        if (ref <= 0 || ref >= offsets.length || offsets[ref] < 0) throw new IllegalArgumentException("bad constant pool index " + ref);
        int at = offsets[ref];
        int tag = pool[at] & 0xff;
        if (tag != METHOD_REF && tag != INTERFACE_METHOD_REF) return null;
        int cls = offsets[u2(pool, at + 1)];
        if ((pool[cls] & 0xff) != CLASS) throw new IllegalArgumentException("a method's owner is not a class entry");
        int name = offsets[u2(pool, cls + 1)];
        if ((pool[name] & 0xff) != UTF8) throw new IllegalArgumentException("a class name is not a Utf8 entry");
        return new String(pool, name + 3, u2(pool, name + 1), StandardCharsets.UTF_8);
    }

    /** Where each constant pool entry begins in {@code pool} (-1 for the unusable slot after a long or double). */
    private static int[] entryOffsets(int count, byte[] pool) {
        int[] offsets = new int[count];
        offsets[0] = -1;
        int at = 0;
        for (int i = 1; i < count; i++) {
            offsets[i] = at;
            int tag = pool[at] & 0xff;
            at += switch (tag) {
                case UTF8 -> 3 + u2(pool, at + 1);
                case 3, 4 -> 5;                 // Integer, Float
                case 5, 6 -> 9;                 // Long, Double
                case CLASS, 8, 16, 19, 20 -> 3; // Class, String, MethodType, Module, Package
                case 9, METHOD_REF, INTERFACE_METHOD_REF, 12, 17, 18 -> 5;  // refs, NameAndType, (Invoke)Dynamic
                case 15 -> 4;                   // MethodHandle
                default -> throw new IllegalArgumentException("constant pool tag " + tag + " at entry " + i);
            };
            if (tag == 5 || tag == 6) offsets[++i] = -1;
        }
        return offsets;
    }

    /** The length of the instruction at {@code pc}, operands included. */
    static int length(byte[] code, int pc) {
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
    private static int checkedLength(byte[] code, int pc) {
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
