package dev.tiprobe.recording;

/**
 * A thread that needs a class another thread is initializing waits for that thread's {@code
 * <clinit>} to end. HotSpot makes it wait on the class's initialization lock, an {@code int[]} the
 * VM keeps, so JFR reports it as an {@code Object.wait} on {@code int[]} whose stack ends in the
 * code that used the class, not in {@code Object.wait}. Such a wait is contention (another thread
 * holds the class), and the views name it {@link #TYPE}, not {@code int[]}.
 */
public final class ClassInitWaits {
    private ClassInitWaits() {}

    /** What the views name the monitor of a wait for another thread's class initialization. */
    public static final String TYPE = "[class initialization by another thread]";

    /**
     * Whether a monitor wait on {@code monitorType} (as the views name types: {@code int[]})
     * with {@code top} as its stack's leaf frame (null: no stack) is a wait for a class's initialization.
     */
    public static boolean is(String monitorType, Parks.Frame top) {
        return "int[]".equals(monitorType) && top != null && !(top.className().equals("java.lang.Object") && top.methodName().startsWith("wait"));
    }
}
