package bench.target;

import org.openjdk.jmh.annotations.CompilerControl;

/**
 * The methods EnterPathBench traces. Outside dev.tiprobe, which tiprobe never instruments, and
 * never inlined, so that every call runs the method's own (instrumented) code.
 */
public final class Work {
    private Work() {}

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public static int work(int x) {
        return x * 31 + 7;
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public static int work2(int x, String s) {
        return x + s.length();
    }

    /** An argument of five fields, which trace mode shows by its fields. */
    public static final class Order {
        private final long id;
        private final String customer;
        private final int lines;
        private final double total;
        private final boolean paid;

        public Order(long id, String customer, int lines, double total, boolean paid) {
            this.id = id;
            this.customer = customer;
            this.lines = lines;
            this.total = total;
            this.paid = paid;
        }
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public static int takeObject(Order o) {
        return o.lines;
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public static int takeString(String s) {
        return s.length();
    }
}
