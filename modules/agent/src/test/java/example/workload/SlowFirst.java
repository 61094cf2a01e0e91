package example.workload;

/**
 * A program whose first call is slow: {@code slow()} sleeps 30 ms as {@code main} begins, while an
 * agent started with the JVM is still getting ready, then runs a second time once it is. Prints
 * {@code slept twice}.
 */
public final class SlowFirst {
    static void slow() throws InterruptedException {
        Thread.sleep(30);
    }

    public static void main(String[] args) throws Exception {
        slow();
        Thread.sleep(2_000);
        slow();
        System.out.println("slept twice");
    }
}
