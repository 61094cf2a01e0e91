package dev.tiprobe.agent.jvm;

/**
 * The agent's own threads end with the session that started them: a user who runs {@code stop}
 * checks with {@code jcmd Thread.print} that nothing of tiprobe is left in the target.
 */
public final class AgentThreads {
    private AgentThreads() {
    }

    /**
     * A daemon thread of the agent's, named {@code name}, not started. Every such thread catches
     * what it can; what escapes anyway (an {@link OutOfMemoryError} in a full heap, thrown again in
     * the thread's own catch block) ends it silently: the JVM's default handler would print a
     * stack trace into the application's stderr, and throw again there in a full heap.
     */
    public static Thread.Builder.OfPlatform daemon(String name) {
        return Thread.ofPlatform().daemon().name(name).uncaughtExceptionHandler(SILENT);
    }

    private static final Thread.UncaughtExceptionHandler SILENT = (thread, thrown) -> { };

    /**
     * Wakes {@code thread} from any sleep or wait and waits for it to end, at most
     * {@code millis}; a thread that ends itself is not waited on. Keeps the caller's interrupt.
     */
    public static void end(Thread thread, long millis) {
        if (thread == null || thread == Thread.currentThread()) return;
        thread.interrupt();
        try {
            thread.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Whether {@code t} is a carrier of the JDK's scheduler for virtual threads: it exists once
     * the program has run one (the pool lets an idle carrier go after a while).
     */
    public static boolean carriesVirtualThreads(Thread t) {
        return t.getClass().getName().equals(CARRIER_THREAD);
    }

    private static final String CARRIER_THREAD = "jdk.internal.misc.CarrierThread";

    /** Platform threads alive, listed without stopping them (a stack walk of all would be a safepoint). */
    public static java.util.List<Thread> live() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) root = root.getParent();
        Thread[] all = new Thread[root.activeCount() + 16];
        int n;
        while ((n = root.enumerate(all, true)) == all.length) all = new Thread[all.length * 2];
        return java.util.Arrays.asList(all).subList(0, n);
    }

    /** The CPU time the whole process has used so far, for the budgets that weigh tiprobe's work against the program's; 0 when not known. */
    public static long processCpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(0L);
    }
}
