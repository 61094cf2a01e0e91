package dev.tiprobe.recording;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class CapturedValueCodecTest {
    private static ByteBuffer written(CapturedValue v) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CapturedValueCodec.write(out, v);
        return ByteBuffer.wrap(out.toByteArray());
    }

    @Test
    void aValueNestedPastTheLimitIsWrittenCutAndReadBackAsWritten() throws Wire.Malformed {
        CapturedValue v = new CapturedValue.Int(7);
        for (int i = 0; i < RecordingFormat.MAX_VALUE_DEPTH + 2; i++) v = new CapturedValue.Array("Object", 1, List.of(v));
        ByteBuffer bytes = written(v);
        CapturedValue back = CapturedValueCodec.read(bytes);
        assertEquals(0, bytes.remaining(), "every byte written is read");
        int depth = 0;
        for (CapturedValue at = back; at instanceof CapturedValue.Array a && !a.first().isEmpty(); at = a.first().getFirst()) depth++;
        assertEquals(RecordingFormat.MAX_VALUE_DEPTH - 1, depth, "elements below the limit are left out, the array's length kept");
    }

    @Test
    void bytesNoWriterWritesAreMalformedNotAnotherValue() {
        assertEquals("unknown value tag 99", assertThrows(Wire.Malformed.class,
                () -> CapturedValueCodec.read(ByteBuffer.wrap(new byte[] {99}))).getMessage());
        ByteBuffer text = written(new CapturedValue.Str("abc"));
        assertEquals("string runs past the chunk", assertThrows(Wire.Malformed.class,
                () -> CapturedValueCodec.read(text.limit(text.limit() - 1))).getMessage());
        ByteBuffer number = written(new CapturedValue.Float64(2.5));
        assertThrows(BufferUnderflowException.class, () -> CapturedValueCodec.read(number.limit(number.limit() - 1)),
                "a number cut short: the reader counts the chunk damaged, as for any record");
        List<Byte> deep = new ArrayList<>();
        for (int i = 0; i <= RecordingFormat.MAX_VALUE_DEPTH; i++) deep.addAll(List.of(RecordingFormat.VALUE_ARRAY, (byte) 0, (byte) 1, (byte) 1));
        byte[] raw = new byte[deep.size()];
        for (int i = 0; i < raw.length; i++) raw[i] = deep.get(i);
        assertEquals("arrays nested too deep", assertThrows(Wire.Malformed.class, () -> CapturedValueCodec.read(ByteBuffer.wrap(raw))).getMessage());
    }
}
