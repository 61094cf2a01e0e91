package dev.tiprobe.recording;

import dev.tiprobe.recording.Wire.Malformed;

import java.util.ArrayList;
import java.util.List;

/**
 * A traced call. {@code durationNanos} is -1 for a call still running when it was written;
 * {@code result} is the returned value ({@link CapturedValue#NONE} for void and while running),
 * or the exception when {@code threw}. A call kept by its duration has its stack as it ended, the
 * method itself on top; others {@link Stack#NONE}. A call whose call sites were timed (a watch's
 * call tree) has its callees, slowest first; others none.
 */
public record Call(long startEpochNanos, long threadId, String threadName, int methodId, int depth, long durationNanos,
                   boolean threw, List<String> argNames, List<CapturedValue> argValues, CapturedValue result, Stack stack,
                   List<Callee> callees) {
    public Call {
        argNames = List.copyOf(argNames);
        argValues = List.copyOf(argValues);
        if (durationNanos < 0 || result == null) result = CapturedValue.NONE;
        if (stack == null) stack = Stack.NONE;
        callees = List.copyOf(callees);
    }

    /** This call as later writes and the reader know it. */
    public Id id() {
        return new Id(threadId, startEpochNanos, depth);
    }

    /** A traced call by its thread, its start and its depth, which no other call of that thread shares. */
    public record Id(long threadId, long startEpochNanos, int depth) {}

    public int[] stackFrames() {
        return stack.frames();
    }

    public int[] stackLines() {
        return stack.lines();
    }

    public static final byte RETURNED = 0;
    public static final byte THREW = 1;
    public static final byte RUNNING = 2;

    /**
     * How the parameter at {@code index} is named, in a call's record and in a condition
     * ({@code watch --where}): by the name its class file keeps ({@code declared}, null where it
     * keeps none), else {@code arg0}, {@code arg1}, ...
     */
    public static String parameterName(List<String> declared, int index) {
        String name = declared != null && index < declared.size() ? declared.get(index) : null;
        return name != null ? name : "arg" + index;
    }

    /**
     * {@code varlong:nanosAfterStart varlong:threadId varint:methodId varint:depth u8:outcome
     * varlong:durationNanos varint:argCount (string:name value) * argCount value:result
     * [varint:stackId, version 10 on; 0: none] [varint:calleeCount (string:method varlong:calls
     * varlong:nanos) * calleeCount, version 11 on]}; outcome RETURNED, THREW or RUNNING (duration 0).
     */
    public static final RecordKind<Call> KIND = new RecordKind<>(8, Call.class) {
        @Override
        public void write(Call c, RecordOut out) {
            out.time(c.startEpochNanos);
            out.thread(c.threadId, c.threadName);
            out.method(c.methodId);
            out.varlong(c.depth);
            out.u8(c.durationNanos < 0 ? RUNNING : c.threw ? THREW : RETURNED);
            out.varlong(c.durationNanos);
            out.varlong(c.argValues.size());
            for (int i = 0; i < c.argValues.size(); i++) {
                out.string(parameterName(c.argNames, i));
                out.value(c.argValues.get(i));
            }
            out.value(c.result);
            out.optionalStack(c.stack);
            out.varlong(c.callees.size());
            for (Callee callee : c.callees) {
                out.string(callee.method());
                out.varlong(callee.calls());
                out.varlong(callee.nanos());
            }
        }

        @Override
        public Call read(RecordIn in) throws Malformed {
            long time = in.time();
            long thread = in.thread();
            int method = in.method();
            long depth = in.varlong();
            if (depth > Integer.MAX_VALUE) throw new Malformed("bad call depth " + depth);
            int outcome = in.u8();
            if (outcome != RETURNED && outcome != THREW && outcome != RUNNING) throw new Malformed("bad call outcome " + outcome);
            long duration = in.varlong();
            int count = in.count("argument count", 2);
            List<String> names = new ArrayList<>();
            List<CapturedValue> args = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                names.add(in.string());
                args.add(in.value());
            }
            CapturedValue result = in.value();
            Stack stack = in.version() >= RecordingFormat.CALLER_STACKS_SINCE ? in.optionalStack() : Stack.NONE;
            List<Callee> sites = new ArrayList<>();
            if (in.version() >= RecordingFormat.CALLEES_SINCE) {
                int callees = in.count("callee count", 3);
                for (int i = 0; i < callees; i++) sites.add(new Callee(in.string(), in.varlong(), in.varlong()));
            }
            return new Call(time, thread, in.threadName(thread), method, (int) depth, outcome == RUNNING ? -1 : duration,
                    outcome == THREW, names, args, result, stack, sites);
        }
    };

    /**
     * A traced call written earlier that the session's sample of calls let go for a later one
     * ({@code --max-calls}): the reader leaves it out, so the calls read are the sample the
     * session kept at its end, however often their figures were written meanwhile.
     * {@code varlong:threadId varlong:startEpochNanos varint:depth}: the start as it is, not from
     * the chunk's start, as the call began long before the eviction was written.
     */
    public static final RecordKind<Id> EVICTED = new RecordKind<>(21, Id.class, RecordingFormat.EVICTIONS_SINCE) {
        @Override
        public void write(Id id, RecordOut out) {
            out.varlong(id.threadId());
            out.varlong(id.startEpochNanos());
            out.varlong(id.depth());
        }

        @Override
        public Id read(RecordIn in) throws Malformed {
            long thread = in.varlong();
            long start = in.varlong();
            long depth = in.varlong();
            if (depth > Integer.MAX_VALUE) throw new Malformed("bad call depth " + depth);
            return new Id(thread, start, (int) depth);
        }
    };
}
