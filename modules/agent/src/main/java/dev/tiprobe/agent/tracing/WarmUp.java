package dev.tiprobe.agent.tracing;

/** A class whose class file the transformer rewrites once before the hook is on (never run). */
final class WarmUp {
    private WarmUp() {}

    static long branches(long a, String b, Object[] c) {
        Object o = a > 0 ? b : c;
        try {
            if (o instanceof String s) return s.length() + a;
            return c.length;
        } catch (RuntimeException e) {
            throw new IllegalStateException(e);
        }
    }

    double value(int x) {
        return x * 2.0;
    }
}
