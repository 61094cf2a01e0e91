package example.known;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * One thread, {@code native-busy}, spends its time in FFM downcalls (libc's {@code memset} over
 * 32 MB, again and again) until the program is stopped: JVMTI sees it in native code, JFR's
 * CPU-time sampler sees its last Java frame, and a wall view must count its time once.
 */
public class NativeBusy {
    @SuppressWarnings("restricted")  // a test program: FFM is what it is about
    public static void main(String[] args) throws Throwable {
        Linker linker = Linker.nativeLinker();
        MethodHandle memset = linker.downcallHandle(linker.defaultLookup().find("memset").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
        MemorySegment block = Arena.global().allocate(32 << 20);
        Thread busy = new Thread(() -> {
            try {
                for (int i = 0; ; i++) {
                    MemorySegment unused = (MemorySegment) memset.invokeExact(block, i & 0xff, block.byteSize());
                }
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }, "native-busy");
        busy.setDaemon(true);
        busy.start();
        System.out.println("ready");
        Thread.sleep(Long.MAX_VALUE);
    }
}
