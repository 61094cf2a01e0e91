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
}
