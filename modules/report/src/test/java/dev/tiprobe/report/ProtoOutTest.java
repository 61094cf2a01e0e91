package dev.tiprobe.report;

import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The bytes of protobuf's encoding guide (protobuf.dev, "Encoding"), and the edges pprof meets. */
class ProtoOutTest {
    private static String hex(ProtoOut out) {
        return HexFormat.ofDelimiter(" ").formatHex(out.toByteArray());
    }

    @Test
    void varintsAndLengthDelimitedFieldsAreTheGuidesBytes() {
        ProtoOut a = new ProtoOut();
        a.writeInt64(1, 150);
        assertEquals("08 96 01", hex(a), "the guide's first example: field 1, 150");
        ProtoOut b = new ProtoOut();
        b.writeString(2, "testing");
        assertEquals("12 07 74 65 73 74 69 6e 67", hex(b), "a string");
        ProtoOut c = new ProtoOut();
        c.writeInt64(1, -2);
        assertEquals("08 fe ff ff ff ff ff ff ff ff 01", hex(c), "a negative int64 takes ten bytes");
        ProtoOut d = new ProtoOut();
        d.writeVarintNoTag(3);
        d.writeVarintNoTag(270);
        d.writeVarintNoTag(86942);
        ProtoOut packed = new ProtoOut();
        packed.writeByteArray(4, d.toByteArray());
        assertEquals("22 06 03 8e 02 9e a7 05", hex(packed), "the guide's packed repeated field");
        ProtoOut e = new ProtoOut();
        e.writeBool(7, true);
        e.writeUInt64(16, 1);
        e.writeInt64(1, 0);
        assertEquals("38 01 80 01 01 08 00", hex(e), "a bool, a field number past 15, a zero still written");
    }
}
