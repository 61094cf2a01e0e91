package dev.tiprobe.report;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The little of protobuf's wire format a pprof profile needs: varint and length-delimited
 * fields, as protobuf-java's {@code CodedOutputStream} wrote them here before (the encoding
 * guide's examples are {@code ProtoOutTest}'s). Hand-written so that the agent, which carries no third-party library into the
 * target, writes pprof itself ({@code loop=…,file=cpu-%t.pb.gz}).
 */
final class ProtoOut {
    private static final int VARINT = 0;
    private static final int LENGTH_DELIMITED = 2;

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    /** An int64 field: negative values take ten bytes, as protobuf writes them. */
    void writeInt64(int field, long value) {
        tag(field, VARINT);
        varint(value);
    }

    /** A uint64 field. */
    void writeUInt64(int field, long value) {
        writeInt64(field, value);  // the same bytes: a varint of the value's 64 bits
    }

    void writeBool(int field, boolean value) {
        writeInt64(field, value ? 1 : 0);
    }

    void writeString(int field, String value) {
        writeByteArray(field, value.getBytes(StandardCharsets.UTF_8));
    }

    /** A length-delimited field: an embedded message, packed values or bytes. */
    void writeByteArray(int field, byte[] value) {
        tag(field, LENGTH_DELIMITED);
        varint(value.length);
        bytes.writeBytes(value);
    }

    /** A varint without a tag, an element of a packed repeated field. */
    void writeVarintNoTag(long value) {
        varint(value);
    }

    byte[] toByteArray() {
        return bytes.toByteArray();
    }

    private void tag(int field, int wireType) {
        varint(((long) field << 3) | wireType);
    }

    private void varint(long value) {
        while ((value & ~0x7FL) != 0) {
            bytes.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        bytes.write((int) value);
    }
}
