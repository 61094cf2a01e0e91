package example.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntUnaryOperator;

/**
 * A target program with known call counts, run by the tracing tests in a JVM of their own. Its
 * output is the same with and without tiprobe; the tests compare it.
 */
public class Workload {
    static final AtomicLong SINK = new AtomicLong();
    static int staticInits;
    static int compares;
    static int sizes;

    static {
        staticInits++;
    }

    private final int base;

    public Workload(int base) {
        this.base = base;
    }

    public Workload() {
        this(7);
    }

    /** fib(n) makes 2 * fib(n + 1) - 1 calls. */
    static int fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    /** Throws at depth 0, caught by the caller at {@code catchAt} levels above. */
    static int thrower(int depth, int catchAt) {
        if (depth == 0) throw new IllegalStateException("bottom");
        if (depth == catchAt) {
            try {
                return thrower(depth - 1, catchAt);
            } catch (IllegalStateException e) {
                return -1;
            }
        }
        return thrower(depth - 1, catchAt);
    }

    synchronized int locked(int x) {
        return x + base;
    }

    static int over(int x) { return x; }
    static long over(long x) { return x; }
    static String over(String x) { return x; }

    static native void nativeMethod();

    interface Shape {
        double area();

        default String describe() {
            return "shape " + area();
        }
    }

    abstract static class Base implements Comparable<Base> {
        abstract int size();
    }

    static final class Box extends Base implements Shape {
        final int side;

        Box(int side) {
            this.side = side;
        }

        @Override
        public double area() {
            return side * side;
        }

        @Override
        int size() {
            sizes++;
            return side;
        }

        /** javac adds a bridge compareTo(Object) that calls this. */
        @Override
        public int compareTo(Base o) {
            compares++;
            return Integer.compare(side, o.size());
        }
    }

    static long mixed(long a, double b, String s, int[] values, Object o, Color c) {
        return a + (long) b + (s == null ? 0 : s.length()) + (values == null ? 0 : values.length) + (c == null ? 0 : c.ordinal());
    }

    enum Color { RED, GREEN }

    /** A toString() that throws: capturing it must not change what the program sees. */
    static final class Nasty {
        @Override
        public String toString() {
            throw new UnsupportedOperationException("no toString for you");
        }
    }

    static int takesNasty(Nasty n) {
        return n == null ? 0 : 1;
    }

    /** A call of known length: time mode must measure about 50 ms, whatever its clock. */
    static void nap() throws InterruptedException {
        Thread.sleep(50);
    }

    public static void main(String[] args) throws Exception {
        System.out.println("fib " + fib(15));                       // 1973 calls
        int caught = 0;
        for (int i = 0; i < 10; i++) caught += thrower(5, 3);       // 10 * 6 calls
        for (int i = 0; i < 5; i++) {
            try {
                thrower(4, -1);                                     // 5 * 5 calls, escapes
            } catch (IllegalStateException e) {
                caught++;
            }
        }
        System.out.println("caught " + caught);
        Workload w = new Workload();                                // 2 constructor calls
        int sum = 0;
        for (int i = 0; i < 1000; i++) sum += w.locked(i);          // 1000
        System.out.println("locked " + sum);
        System.out.println("over " + over(1) + over(2L) + over("3")); // 1 each
        IntUnaryOperator twice = x -> x * 2;                        // lambda body: 100
        for (int i = 0; i < 100; i++) sum += twice.applyAsInt(i);
        Box box = new Box(3);
        Shape shape = box;
        System.out.println(shape.describe());                       // describe 1, area 1
        List<Base> boxes = new ArrayList<>(List.of(new Box(2), box, new Box(1)));
        boxes.sort(null);                                           // bridge -> compareTo(Base)
        System.out.println("sorted " + boxes.stream().mapToInt(Base::size).sum());
        System.out.println("mixed " + mixed(1L << 40, 2.5, "x".repeat(300), new int[] {1, 2, 3}, null, Color.GREEN));
        System.out.println("nasty " + takesNasty(new Nasty()));
        nap();
        threads();
        System.out.println("static " + staticInits + " compares " + compares + " sizes " + sizes);
        System.out.println("sum " + sum);
    }

    static void tick() {
        SINK.incrementAndGet();
    }

    /** 8 platform threads and 1000 virtual threads call tick(): 8 * 10,000 + 1000 * 100. */
    static void threads() throws Exception {
        List<Thread> platform = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            platform.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 10_000; i++) tick();
            }));
        }
        for (Thread t : platform) t.join();
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int t = 0; t < 1000; t++) {
                executor.submit(() -> {
                    for (int i = 0; i < 100; i++) {
                        tick();
                        if (i % 10 == 0) Thread.yield();
                    }
                });
            }
        }
        System.out.println("ticks " + SINK.get());
    }
}
