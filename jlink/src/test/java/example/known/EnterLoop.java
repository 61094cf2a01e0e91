package example.known;

/**
 * A loop in {@code main} that never returns until the end, calling a tiny static method: the
 * shape that a class change strands in the interpreter for good (a running activation stays in
 * its old method version, never compiled again). Each second it prints what one call cost that
 * second, so a test can compare its speed before, during and after a session in one process.
 *
 * <p>Usage: {@code EnterLoop <seconds> [own|other|chunks]}: {@code own} calls {@link #work} of
 * this class, {@code other} calls {@link Callee#work} of another class (the loop's own class then
 * never needs to change), {@code chunks} calls {@link #chunk} of this class, a microsecond of
 * {@link #work} a call: run with {@code -XX:CompileCommand=dontinline,example.known.EnterLoop::chunk},
 * the loop in {@code main} then only calls, its time all in its callee. Prints {@code ready}, then {@code second <n> <ns per call>} each second,
 * then {@code done <ns per call over the whole run> <calls> <checksum>}.
 */
public class EnterLoop {
    static int work(int x) {
        return x * 31 + 7;
    }

    /** A thousand calls of {@link #work}. */
    static int chunk(int x) {
        for (int i = 0; i < 1_000; i++) x = work(x);
        return x;
    }

    /** The callee in a class of its own. */
    public static final class Callee {
        static int work(int x) {
            return x * 31 + 7;
        }
    }

    public static void main(String[] args) {
        long seconds = Long.parseLong(args[0]);
        String callee = args.length < 2 ? "own" : args[1];
        System.out.println("ready");
        long start = System.nanoTime();
        long end = start + seconds * 1_000_000_000L;
        long mark = start;
        long calls = 0;
        long all = 0;
        int acc = 1;
        int second = 0;
        while (true) {
            // Each call's argument is the last one's result: no vectorizing, about a nanosecond a call.
            switch (callee) {
                case "own" -> {
                    for (int i = 0; i < 1_000_000; i++) acc = work(acc);
                }
                case "other" -> {
                    for (int i = 0; i < 1_000_000; i++) acc = Callee.work(acc);
                }
                default -> {
                    for (int i = 0; i < 1_000; i++) acc = chunk(acc);
                }
            }
            calls += 1_000_000;
            long now = System.nanoTime();
            if (now - mark >= 1_000_000_000L) {
                System.out.printf("second %d %.3f%n", ++second, (now - mark) / (double) calls);
                all += calls;
                mark = now;
                calls = 0;
                if (now >= end) break;
            }
        }
        System.out.printf("done %.3f %d %d%n", (mark - start) / (double) all, all + calls, acc);
    }
}
