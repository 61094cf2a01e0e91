package dev.tiprobe.agent.tracing;

import dev.tiprobe.filter.CallCondition;
import dev.tiprobe.probe.Call;
import dev.tiprobe.probe.Captured;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A traced call as a {@link CallCondition} reads it: the values the probe captured at the call,
 * turned into the condition's model as they are asked for. Nothing of the application's is run:
 * objects are their captured fields, a JDK value its captured text.
 */
final class CallFacts implements CallCondition.Facts {
    private final Call call;
    /** The method's parameter names as its class file keeps them, or null; where it keeps none, arg0, arg1, ... */
    private final List<String> parameterNames;

    CallFacts(Call call, List<String> parameterNames) {
        this.call = call;
        this.parameterNames = parameterNames;
    }

    @Override
    public Object argument(String name) {
        int declared = parameterNames == null ? -1 : parameterNames.indexOf(name);  // a name the class file keeps first
        if (declared >= 0) return argument(declared);
        for (int i = 0; i < call.args().length; i++) {
            if (dev.tiprobe.recording.Call.parameterName(parameterNames, i).equals(name)) return argument(i);
        }
        return CallCondition.MISSING;
    }

    @Override
    public Object argument(int index) {
        Object[] args = call.args();
        return index < args.length ? model(args[index]) : CallCondition.MISSING;
    }

    @Override
    public Object returned() {
        return call.outcome() == Call.THREW ? CallCondition.MISSING : model(call.result());
    }

    @Override
    public String thrown() {
        return call.outcome() == Call.THREW && call.result() instanceof Captured.Thrown t ? t.type() : null;
    }

    @Override
    public long durationNanos() {
        return call.durationNanos();
    }

    @Override
    public String thread() {
        return call.threadName();
    }

    /** A captured value in the condition's model: null, Boolean, Long, Double, String, Fields or Elements; MISSING where nothing was read. */
    static Object model(Object v) {
        return switch (v) {
            case null -> null;
            case Boolean b -> b;
            case Long l -> l;
            case Integer i -> (long) i;
            case Short s -> (long) s;
            case Byte b -> (long) b;
            case Double d -> d;
            case Float f -> (double) f;
            case Character c -> String.valueOf(c);
            case String s -> s;
            case Captured.Text t -> t.prefix();
            case Captured.EnumValue e -> e.name();
            case Captured.JdkValue j -> number(j.text());
            case Captured.ArrayValue a -> {
                List<Object> first = new ArrayList<>();
                for (Object e : a.first()) first.add(model(e));
                yield new CallCondition.Elements(a.length(), first);
            }
            case Captured.ObjectValue o -> {
                Map<String, Object> fields = new LinkedHashMap<>();
                if (o.fields() != null) for (Captured.FieldValue f : o.fields()) fields.put(f.name(), model(f.value()));
                yield new CallCondition.Fields(o.type(), fields);
            }
            case Captured.Sized s -> new CallCondition.Fields(s.type(), Map.of("size", (long) s.size()));
            case Captured.Seen s -> new CallCondition.Fields(s.type(), Map.of());
            default -> CallCondition.MISSING;  // unreadable, skipped
        };
    }

    /** A JDK value's text as a number where it is one ({@code BigDecimal}'s 12.50), else the text. */
    private static Object number(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException notALong) {
            try {
                return Double.parseDouble(text);
            } catch (NumberFormatException notANumber) {
                return text;
            }
        }
    }
}
