package example.known;

/**
 * One slow method among a million fast calls: {@code slow(k)} sleeps 20 ms, five times, between
 * rounds of 200,000 calls of {@code fast}. Prints {@code sum <n>}.
 */
public final class SlowAmongFast {
    static long fast(long i) {
        return i * 31 + 7;
    }

    static long slow(int k) throws InterruptedException {
        Thread.sleep(20);
        return k;
    }

    public static void main(String[] args) throws Exception {
        long sum = 0;
        for (int k = 0; k < 5; k++) {
            for (int i = 0; i < 200_000; i++) sum += fast(i) & 1;
            sum += slow(k);
        }
        System.out.println("sum " + sum);
    }
}
