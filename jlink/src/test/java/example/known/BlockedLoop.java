package example.known;

/**
 * A loop that never turns: {@code main} waits to enter a monitor in its own body, which another
 * thread holds for good, so main's frame is on top of its stack at the {@code monitorenter} and
 * it uses no CPU. {@link #work} is a method of the same class for a session to trace. Prints
 * "ready" as main goes to the monitor.
 */
public class BlockedLoop {
    private static final Object LOCK = new Object();
    static long turns;

    static int work(int x) {
        return x * 3;
    }

    public static void main(String[] args) throws Exception {
        Thread holder = new Thread(() -> {
            synchronized (LOCK) {
                while (true) {
                    try {
                        Thread.sleep(Long.MAX_VALUE);
                    } catch (InterruptedException e) {
                        // holds on
                    }
                }
            }
        }, "holder");
        holder.setDaemon(true);
        holder.start();
        while (holder.getState() != Thread.State.TIMED_WAITING) Thread.sleep(1);
        System.out.println("ready");
        while (true) {
            synchronized (LOCK) {
                turns += work((int) turns);
            }
        }
    }
}
