package dev.tiprobe.recording;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The recording's primitive encodings, both ways: numbers as little-endian base-128 varints,
 * strings as a varint length and UTF-8, flags as one byte 0 or 1, fixed-width numbers big-endian.
 * The writer writes records with them, the reader and {@link CapturedValueCodec} read them back;
 * a read past the buffer's end throws {@link java.nio.BufferUnderflowException}, anything else
 * that cannot be what was written throws {@link Malformed}.
 */
public final class Wire {
    private Wire() {}

    /** Bytes that cannot be what a writer wrote: the chunk holding them is damaged. */
    public static final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;

        public Malformed(String message) {
            super(message, null, false, false);
        }
    }

    public static void varlong(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    public static void string(ByteArrayOutputStream out, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        varlong(out, bytes.length);
        out.writeBytes(bytes);
    }

    /** A flag, then the string when there is one. */
    public static void optionalString(ByteArrayOutputStream out, String s) {
        out.write(s == null ? 0 : 1);
        if (s != null) string(out, s);
    }

    /** The low {@code n} bytes of {@code v}, big-endian. */
    public static void fixed(ByteArrayOutputStream out, long v, int n) {
        for (int shift = 8 * (n - 1); shift >= 0; shift -= 8) out.write((int) (v >>> shift));
    }

    /** A count, length, id or time: never negative. */
    public static long varlong(ByteBuffer in) throws Malformed {
        long v = bits(in);
        if (v < 0) throw new Malformed("negative number");
        return v;
    }

    /** 64 bits in a varint, all of them meaningful (a zigzag-coded value). */
    public static long bits(ByteBuffer in) throws Malformed {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte x = in.get();
            v |= (long) (x & 0x7F) << shift;
            if (x >= 0) return v;
        }
        throw new Malformed("number longer than 10 bytes");
    }

    /** A count that must fit an int ({@code what} names it in the error). */
    public static int count(ByteBuffer in, String what) throws Malformed {
        long n = varlong(in);
        if (n > Integer.MAX_VALUE) throw new Malformed("bad " + what + " " + n);
        return (int) n;
    }

    public static boolean flag(ByteBuffer in) throws Malformed {
        byte f = in.get();
        if (f != 0 && f != 1) throw new Malformed("bad flag " + f);
        return f == 1;
    }

    public static String string(ByteBuffer in) throws Malformed {
        long length = varlong(in);
        if (length > in.remaining()) throw new Malformed("string runs past the chunk");
        byte[] bytes = new byte[(int) length];
        in.get(bytes);
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new Malformed("a name is not UTF-8");
        }
    }

    public static String optionalString(ByteBuffer in) throws Malformed {
        return flag(in) ? string(in) : null;
    }
}
