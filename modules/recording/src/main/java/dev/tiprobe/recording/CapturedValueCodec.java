package dev.tiprobe.recording;

import dev.tiprobe.recording.Wire.Malformed;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static dev.tiprobe.recording.Wire.bits;
import static dev.tiprobe.recording.Wire.count;
import static dev.tiprobe.recording.Wire.fixed;
import static dev.tiprobe.recording.Wire.flag;
import static dev.tiprobe.recording.Wire.optionalString;
import static dev.tiprobe.recording.Wire.string;
import static dev.tiprobe.recording.Wire.varlong;

/**
 * A {@link CapturedValue} in a recording (format version 4 on), both ways: a tag byte
 * ({@code RecordingFormat.VALUE_*}), then the kind's parts. Writing and reading sit side by side
 * here, so a kind is added or changed in this one file (and {@link CapturedValue}); values nest at
 * most {@link RecordingFormat#MAX_VALUE_DEPTH} deep, deeper elements and fields are left out.
 */
public final class CapturedValueCodec {
    private CapturedValueCodec() {}

    public static void write(ByteArrayOutputStream out, CapturedValue v) {
        write(out, v, 0);
    }

    public static CapturedValue read(ByteBuffer in) throws Malformed {
        return read(in, 0);
    }

    private static void write(ByteArrayOutputStream out, CapturedValue v, int depth) {
        switch (v) {
            case CapturedValue.None n -> out.write(RecordingFormat.VALUE_NONE);
            case CapturedValue.Null n -> out.write(RecordingFormat.VALUE_NULL);
            case CapturedValue.Bool b -> out.write(b.value() ? RecordingFormat.VALUE_TRUE : RecordingFormat.VALUE_FALSE);
            case CapturedValue.Int i -> {
                out.write(RecordingFormat.VALUE_INT);
                varlong(out, (i.value() << 1) ^ (i.value() >> 63));  // zigzag: small negatives stay short
            }
            case CapturedValue.Float32 f -> {
                out.write(RecordingFormat.VALUE_FLOAT);
                fixed(out, Float.floatToRawIntBits(f.value()), 4);
            }
            case CapturedValue.Float64 d -> {
                out.write(RecordingFormat.VALUE_DOUBLE);
                fixed(out, Double.doubleToRawLongBits(d.value()), 8);
            }
            case CapturedValue.Char c -> {
                out.write(RecordingFormat.VALUE_CHAR);
                varlong(out, c.value());
            }
            case CapturedValue.Str s -> {
                out.write(RecordingFormat.VALUE_STRING);
                string(out, s.value());
            }
            case CapturedValue.Text t -> {
                out.write(RecordingFormat.VALUE_TEXT);
                string(out, t.prefix());
                varlong(out, Math.max(0, t.length()));
            }
            case CapturedValue.EnumConstant e -> {
                out.write(RecordingFormat.VALUE_ENUM);
                string(out, e.type());
                string(out, e.name());
            }
            case CapturedValue.Array a -> writeArray(out, a, depth);
            case CapturedValue.Obj o -> writeObject(out, o, depth);
            case CapturedValue.Seen seen -> {
                out.write(RecordingFormat.VALUE_SEEN);
                string(out, seen.type());
                fixed(out, seen.identityHash(), 4);
            }
            case CapturedValue.Sized sized -> {
                out.write(RecordingFormat.VALUE_SIZED);
                string(out, sized.type());
                varlong(out, Math.max(0, sized.size()));
            }
            case CapturedValue.JdkValue jdk -> {
                out.write(RecordingFormat.VALUE_JDK);
                string(out, jdk.type());
                string(out, jdk.text());
            }
            case CapturedValue.Unreadable u -> {
                out.write(RecordingFormat.VALUE_UNREADABLE);
                string(out, u.why());
            }
            case CapturedValue.Thrown t -> {
                out.write(RecordingFormat.VALUE_THROWN);
                string(out, t.type());
                optionalString(out, t.message());
            }
            case CapturedValue.NotCaptured n -> out.write(RecordingFormat.VALUE_NOT_CAPTURED);
            case CapturedValue.Shown t -> {  // not made by the agent; kept as a string should one come
                out.write(RecordingFormat.VALUE_STRING);
                string(out, t.text());
            }
        }
    }

    private static void writeArray(ByteArrayOutputStream out, CapturedValue.Array a, int depth) {
        out.write(RecordingFormat.VALUE_ARRAY);
        string(out, a.componentType());
        varlong(out, Math.max(0, a.length()));
        boolean descend = depth + 1 < RecordingFormat.MAX_VALUE_DEPTH;
        varlong(out, descend ? a.first().size() : 0);
        if (descend) for (CapturedValue e : a.first()) write(out, e, depth + 1);
    }

    private static CapturedValue.Array readArray(ByteBuffer in, int depth) throws Malformed {
        if (depth >= RecordingFormat.MAX_VALUE_DEPTH) throw new Malformed("arrays nested too deep");
        String type = string(in);
        int length = count(in, "array length");
        long n = varlong(in);
        if (n > length || n > in.remaining()) throw new Malformed("bad array elements " + n);
        List<CapturedValue> first = new ArrayList<>();
        for (long i = 0; i < n; i++) first.add(read(in, depth + 1));
        return new CapturedValue.Array(type, length, first);
    }

    private static void writeObject(ByteArrayOutputStream out, CapturedValue.Obj o, int depth) {
        out.write(RecordingFormat.VALUE_OBJECT);
        string(out, o.type());
        fixed(out, o.identityHash(), 4);
        optionalString(out, o.text());
        boolean fields = o.fields() != null && depth + 1 < RecordingFormat.MAX_VALUE_DEPTH;
        out.write(fields ? 1 : 0);
        if (!fields) return;
        varlong(out, o.fields().size());
        for (CapturedValue.Field f : o.fields()) {
            string(out, f.name());
            write(out, f.value(), depth + 1);
        }
        varlong(out, Math.max(0, o.moreFields()));
    }

    private static CapturedValue.Obj readObject(ByteBuffer in, int depth) throws Malformed {
        String type = string(in);
        int hash = in.getInt();
        String text = optionalString(in);
        if (!flag(in)) return new CapturedValue.Obj(type, hash, text);
        if (depth >= RecordingFormat.MAX_VALUE_DEPTH) throw new Malformed("fields nested too deep");
        long n = varlong(in);
        if (n > in.remaining()) throw new Malformed("bad field count " + n);
        List<CapturedValue.Field> fields = new ArrayList<>();
        for (long i = 0; i < n; i++) fields.add(new CapturedValue.Field(string(in), read(in, depth + 1)));
        return new CapturedValue.Obj(type, hash, text, fields, count(in, "count of fields left out"));
    }

    private static CapturedValue read(ByteBuffer in, int depth) throws Malformed {
        byte tag = in.get();
        return switch (tag) {
            case RecordingFormat.VALUE_NONE -> CapturedValue.NONE;
            case RecordingFormat.VALUE_NULL -> CapturedValue.NULL;
            case RecordingFormat.VALUE_FALSE -> new CapturedValue.Bool(false);
            case RecordingFormat.VALUE_TRUE -> new CapturedValue.Bool(true);
            case RecordingFormat.VALUE_INT -> {
                long zigzag = bits(in);
                yield new CapturedValue.Int((zigzag >>> 1) ^ -(zigzag & 1));
            }
            case RecordingFormat.VALUE_FLOAT -> new CapturedValue.Float32(Float.intBitsToFloat(in.getInt()));
            case RecordingFormat.VALUE_DOUBLE -> new CapturedValue.Float64(Double.longBitsToDouble(in.getLong()));
            case RecordingFormat.VALUE_CHAR -> {
                long c = varlong(in);
                if (c > Character.MAX_VALUE) throw new Malformed("bad char " + c);
                yield new CapturedValue.Char((char) c);
            }
            case RecordingFormat.VALUE_STRING -> new CapturedValue.Str(string(in));
            case RecordingFormat.VALUE_TEXT -> new CapturedValue.Text(string(in), count(in, "text length"));
            case RecordingFormat.VALUE_ENUM -> new CapturedValue.EnumConstant(string(in), string(in));
            case RecordingFormat.VALUE_ARRAY -> readArray(in, depth);
            case RecordingFormat.VALUE_OBJECT -> readObject(in, depth);
            case RecordingFormat.VALUE_SEEN -> new CapturedValue.Seen(string(in), in.getInt());
            case RecordingFormat.VALUE_SIZED -> new CapturedValue.Sized(string(in), count(in, "size"));
            case RecordingFormat.VALUE_JDK -> new CapturedValue.JdkValue(string(in), string(in));
            case RecordingFormat.VALUE_UNREADABLE -> new CapturedValue.Unreadable(string(in));
            case RecordingFormat.VALUE_THROWN -> new CapturedValue.Thrown(string(in), optionalString(in));
            case RecordingFormat.VALUE_NOT_CAPTURED -> CapturedValue.NOT_CAPTURED;
            default -> throw new Malformed("unknown value tag " + tag);
        };
    }
}
