package dev.tiprobe.agent.tracing;

import dev.tiprobe.probe.Captured;
import dev.tiprobe.recording.CapturedValue;

import java.util.ArrayList;
import java.util.List;

/**
 * What the probe captured ({@link Captured}, boxed primitives, strings) as the recording keeps it
 * ({@link CapturedValue}). The probe lives on the boot class path and knows nothing of the
 * recording; this is the one place the two meet.
 */
public final class CapturedValues {
    private CapturedValues() {}

    public static CapturedValue of(Object v) {
        return switch (v) {
            case null -> CapturedValue.NULL;
            case Boolean b -> new CapturedValue.Bool(b);
            case Byte b -> new CapturedValue.Int(b);
            case Short s -> new CapturedValue.Int(s);
            case Integer i -> new CapturedValue.Int(i);
            case Long l -> new CapturedValue.Int(l);
            case Float f -> new CapturedValue.Float32(f);
            case Double d -> new CapturedValue.Float64(d);
            case Character c -> new CapturedValue.Char(c);
            case String s -> new CapturedValue.Str(s);
            case Captured.Text t -> new CapturedValue.Text(t.prefix(), t.length());
            case Captured.EnumValue e -> new CapturedValue.EnumConstant(e.type(), e.name());
            case Captured.ArrayValue a -> {
                List<CapturedValue> first = new ArrayList<>(a.first().length);
                for (Object element : a.first()) first.add(of(element));
                yield new CapturedValue.Array(a.componentType(), a.length(), first);
            }
            case Captured.ObjectValue o -> {
                List<CapturedValue.Field> fields = null;
                if (o.fields() != null) {
                    fields = new ArrayList<>(o.fields().size());
                    for (Captured.FieldValue f : o.fields()) fields.add(new CapturedValue.Field(f.name(), of(f.value())));
                }
                yield new CapturedValue.Obj(o.type(), o.identityHash(), o.text(), fields, o.moreFields());
            }
            case Captured.Seen seen -> new CapturedValue.Seen(seen.type(), seen.identityHash());
            case Captured.Sized sized -> new CapturedValue.Sized(sized.type(), sized.size());
            case Captured.JdkValue jdk -> new CapturedValue.JdkValue(jdk.type(), jdk.text());
            case Captured.Unreadable u -> new CapturedValue.Unreadable(u.why());
            case Captured.Thrown t -> new CapturedValue.Thrown(t.type(), t.message());
            case Captured.Skipped s -> CapturedValue.NOT_CAPTURED;
            default -> new CapturedValue.Str(String.valueOf(v));  // nothing else is captured; kept readable should it be
        };
    }
}
