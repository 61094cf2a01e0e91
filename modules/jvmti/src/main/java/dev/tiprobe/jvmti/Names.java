package dev.tiprobe.jvmti;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * Decodes the NUL-terminated modified UTF-8 strings JVMTI returns.
 *
 * <p>Modified UTF-8 differs from UTF-8 only for NUL (C0 80) and supplementary characters (two
 * encoded surrogates), which a standard UTF-8 decoder turns into U+FFFD. So the JDK's fast UTF-8
 * path decodes, and the rare string with a U+FFFD in it is decoded again by hand. (An intern cache
 * and an eight-bytes-at-a-time scan were tried and measured slower; see BENCHMARKS.md.)
 */
final class Names {
    /** All of memory, made once: reading through it needs no reinterpret per string. */
    private static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private Names() {}

    /** The string at {@code address}, or null for address 0. */
    static String decode(long address) {
        if (address == 0) return null;
        String fast = ALL.getString(address, StandardCharsets.UTF_8);
        return fast.indexOf('\uFFFD') < 0 ? fast : modifiedUtf8(address);
    }

    /** Modified UTF-8 (JVMS 4.4.7): NUL as C0 80, supplementary characters as surrogate pairs. */
    static String modifiedUtf8(long address) {
        StringBuilder sb = new StringBuilder();
        for (long i = 0; ; ) {
            int b = ALL.get(JAVA_BYTE, address + i) & 0xFF;
            if (b == 0) return sb.toString();
            int extra = b < 0x80 ? 0 : (b & 0xE0) == 0xC0 ? 1 : 2;
            int c = extra == 0 ? b : extra == 1 ? b & 0x1F : b & 0x0F;
            for (int k = 1; k <= extra; k++) {
                int next = ALL.get(JAVA_BYTE, address + i + k) & 0xFF;
                if (next == 0) return sb.append('\uFFFD').toString();  // truncated sequence
                c = (c << 6) | (next & 0x3F);
            }
            sb.append((char) c);
            i += 1 + extra;
        }
    }
}
