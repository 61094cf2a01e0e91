package dev.tiprobe.agent.sampling;

import dev.tiprobe.agent.classchange.Bytecodes;

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
            pc += Bytecodes.checkedLength(code, pc);
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

    private static int u2(byte[] b, int at) {
        return (b[at] & 0xff) << 8 | b[at + 1] & 0xff;
    }
}
