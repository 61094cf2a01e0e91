package dev.tiprobe.jvmti;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** JVMTI hands out modified UTF-8; names with NUL or supplementary characters must survive. */
class NamesTest {
    private static String decode(byte... bytes) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(bytes.length + 1L);
            s.copyFrom(MemorySegment.ofArray(bytes));
            return Names.decode(s.address());
        }
    }

    @Test
    void asciiAndTwoAndThreeByteCharacters() {
        assertEquals("Ljava/lang/String;", decode("Ljava/lang/String;".getBytes()));
        assertEquals("é€", decode((byte) 0xC3, (byte) 0xA9, (byte) 0xE2, (byte) 0x82, (byte) 0xAC));
        assertEquals("", decode());
        assertNull(Names.decode(0));
    }

    @Test
    void modifiedUtf8NulAndSurrogatePairs() {
        // NUL is C0 80; U+1F600 is the surrogate pair D83D DE00, each encoded in three bytes.
        assertEquals("a\u0000b", decode((byte) 'a', (byte) 0xC0, (byte) 0x80, (byte) 'b'));
        assertEquals("\uD83D\uDE00", decode((byte) 0xED, (byte) 0xA0, (byte) 0xBD, (byte) 0xED, (byte) 0xB8, (byte) 0x80));
    }

    @Test
    void aTruncatedSequenceEndsInAReplacementCharacter() {
        assertEquals("x\uFFFD", decode((byte) 'x', (byte) 0xE2, (byte) 0x82));
    }
}
