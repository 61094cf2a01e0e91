package dev.tiprobe.ids;

import java.util.Arrays;
import java.util.Objects;

/**
 * The JVM's counterpart of a CLR mdMethodDef: a method identified by its class token, name and
 * descriptor, with what describes it further.
 */
public final class MethodToken {
    private final ClassToken owner;
    private final String name;
    private final String descriptor;
    private final String genericSignature;
    private final int modifiers;
    /**
     * The line table as sorted (bci, line) pairs, two bytes each as in a class file's
     * LineNumberTable: every method token holds one, and ints took twice the heap.
     */
    private final char[] lines;

    /**
     * @param owner            the declaring class
     * @param name             {@code total}, {@code <init>}, {@code <clinit>}
     * @param descriptor       {@code (Ljava/lang/String;I)Ljava/util/List;}
     * @param genericSignature the Signature attribute, or null
     * @param modifiers        access flags ({@link java.lang.reflect.Modifier} bits)
     * @param lines            the line number table as pairs (start bci, line), or an empty array;
     *                         each value fits in two bytes, as in a class file
     * @throws IllegalArgumentException when a bci or line does not fit in two bytes
     */
    public MethodToken(ClassToken owner, String name, String descriptor, String genericSignature, int modifiers,
                       int[] lines) {
        this.owner = Objects.requireNonNull(owner, "owner");
        // Interned, as ClassToken's: names and descriptors repeat across classes and across the ID maps.
        this.name = Objects.requireNonNull(name, "name").intern();
        this.descriptor = Objects.requireNonNull(descriptor, "descriptor").intern();
        Descriptors.checkMethodDescriptor(descriptor);
        this.genericSignature = genericSignature == null ? null : genericSignature.intern();
        this.modifiers = modifiers;
        this.lines = sortedPairs(lines);
    }

    private static final char[] NO_LINES = new char[0];

    /** The (bci, line) pairs ordered by bci, as {@link #lineAt} reads them. */
    private static char[] sortedPairs(int[] lines) {
        if (lines.length % 2 != 0) throw new IllegalArgumentException("line table needs (bci, line) pairs");
        if (lines.length == 0) return NO_LINES;
        long[] packed = new long[lines.length / 2];
        for (int i = 0; i < packed.length; i++) packed[i] = ((long) u2(lines[2 * i]) << 16) | u2(lines[2 * i + 1]);
        Arrays.sort(packed);
        char[] sorted = new char[lines.length];
        for (int i = 0; i < packed.length; i++) {
            sorted[2 * i] = (char) (packed[i] >>> 16);
            sorted[2 * i + 1] = (char) packed[i];
        }
        return sorted;
    }

    private static int u2(int value) {
        if (!fitsLineTable(value)) throw new IllegalArgumentException("a line table value out of a class file's range: " + value);
        return value;
    }

    /** Whether a bci or line fits a class file's line table (two bytes), as this token keeps it. */
    public static boolean fitsLineTable(long value) {
        return value >= 0 && value <= 0xFFFF;
    }

    public ClassToken owner() { return owner; }
    public String name() { return name; }
    public String descriptor() { return descriptor; }

    /** Whether the method returns nothing: its descriptor's return type is {@code V}. */
    public boolean returnsVoid() { return descriptor.endsWith(")V"); }
    public String genericSignature() { return genericSignature; }
    public int modifiers() { return modifiers; }

    /** The line of bytecode index {@code bci}, or -1 when the table has none. */
    public int lineAt(long bci) {
        int line = -1;
        for (int i = 0; i < lines.length; i += 2) {
            if (lines[i] <= bci) line = lines[i + 1];
            else break;
        }
        return line;
    }

    /** The first line of the method, or -1. */
    public int firstLine() {
        return lines.length == 0 ? -1 : lines[1];
    }

    /** The deterministic text form: the class token's, then {@code ::name(descriptor)}. */
    public String text() {
        return owner.text() + " ::" + name + descriptor;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MethodToken m && owner.equals(m.owner) && name.equals(m.name)
                && descriptor.equals(m.descriptor) && Objects.equals(genericSignature, m.genericSignature)
                && modifiers == m.modifiers && Arrays.equals(lines, m.lines);
    }

    @Override
    public int hashCode() {
        return Objects.hash(owner, name, descriptor);
    }

    @Override
    public String toString() {
        return text();
    }
}
