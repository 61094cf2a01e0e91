package dev.tiprobe.recording;

import dev.tiprobe.recording.Wire.Malformed;

import java.util.Arrays;

/**
 * A traced method's figures so far: its calls and, when {@code timed}, their inclusive wall-clock
 * times with a histogram ({@code histogram[b]} calls took [2^b, 2^(b+1)) ns; empty before version
 * 4). A later figure of the same method replaces an earlier one. {@code settled} (version 8 on):
 * the method's class has unloaded and these are its last figures; they replace what was written
 * before and are added to the figures of an equal class that comes back under the same id. The
 * agent writes an id's settled figures before the live ones that follow them, and once: a chunk
 * skipped as damaged loses them for good.
 */
public record MethodStats(int methodId, long calls, boolean settled, boolean timed, long totalNanos, long minNanos, long maxNanos,
                          long[] histogram) {
    /** A STATS flag: times and a histogram follow. */
    private static final int TIMED = 1;
    /** A STATS flag: the last figures of a method whose class unloaded. */
    private static final int SETTLED = 2;

    /** These figures and {@code other}'s (of an equal method of another class instance) together; settled when both were. */
    public MethodStats plus(MethodStats other) {
        long[] h = Arrays.copyOf(histogram, Math.max(histogram.length, other.histogram.length));
        for (int i = 0; i < other.histogram.length; i++) h[i] += other.histogram[i];
        long min = calls == 0 ? other.minNanos : other.calls == 0 ? minNanos : Math.min(minNanos, other.minNanos);
        boolean bothTimed = timed && other.timed;
        return new MethodStats(methodId, calls + other.calls, settled && other.settled, timed || other.timed,
                bothTimed ? totalNanos + other.totalNanos : timed ? totalNanos : other.totalNanos,
                min, Math.max(maxNanos, other.maxNanos), h);
    }

    /**
     * {@code varint:methodId varlong:calls u8:flags [varlong:totalNanos varlong:minNanos
     * varlong:maxNanos varint:buckets (u8:bucket varlong:count) * buckets]}: flag 1 timed (the
     * histogram from version 4 on), flag 2 settled.
     */
    public static final RecordKind<MethodStats> KIND = new RecordKind<>(7, MethodStats.class) {
        @Override
        public void write(MethodStats s, RecordOut out) {
            out.method(s.methodId);
            out.varlong(s.calls);
            out.u8((s.timed ? TIMED : 0) | (s.settled ? SETTLED : 0));
            if (!s.timed) return;
            out.varlong(s.totalNanos);
            out.varlong(s.minNanos);
            out.varlong(s.maxNanos);
            int buckets = 0;
            for (int b = 0; b < s.histogram.length && b < 64; b++) if (s.histogram[b] > 0) buckets++;
            out.varlong(buckets);
            for (int b = 0; b < s.histogram.length && b < 64; b++) {
                if (s.histogram[b] <= 0) continue;
                out.u8(b);
                out.varlong(s.histogram[b]);
            }
        }

        @Override
        public MethodStats read(RecordIn in) throws Malformed {
            int method = in.method();
            long calls = in.varlong();
            int flags = in.u8();
            int known = TIMED | (in.version() >= RecordingFormat.SETTLED_SINCE ? SETTLED : 0);
            if ((flags & ~known) != 0) throw new Malformed("bad statistics flags " + flags);
            boolean settled = (flags & SETTLED) != 0;
            if ((flags & TIMED) == 0) return new MethodStats(method, calls, settled, false, -1, -1, -1, new long[0]);
            long total = in.varlong();
            long min = in.varlong();
            long max = in.varlong();
            long[] histogram = in.version() >= RecordingFormat.VALUES_SINCE ? histogram(in) : new long[0];
            return new MethodStats(method, calls, settled, true, total, min, max, histogram);
        }

        private static long[] histogram(RecordIn in) throws Malformed {
            long buckets = in.varlong();
            if (buckets > 64) throw new Malformed("bad histogram of " + buckets + " buckets");
            long[] h = new long[64];
            for (long i = 0; i < buckets; i++) {
                int bucket = in.u8();
                if (bucket >= 64) throw new Malformed("bad histogram bucket " + bucket);
                h[bucket] = in.varlong();
            }
            return h;
        }
    };
}
