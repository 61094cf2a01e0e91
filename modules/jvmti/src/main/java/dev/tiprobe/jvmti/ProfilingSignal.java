package dev.tiprobe.jvmti;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * Who handles SIGPROF in this process, read with libc's {@code sigaction} (nothing is changed).
 *
 * <p>Why: JFR's CPU-time sampler (JDK 25, Linux) has each thread's CPU timer send SIGPROF. When
 * another profiler took the signal first (async-profiler's {@code cpu}, {@code itimer}), JFR
 * records no CPU-time sample and prints "Conflicting SIGPROF handler found" to the program's
 * output; measured here: a session attached after async-profiler got 2 samples in 8 s of two busy
 * threads. A handler inside libjvm is JFR's own, which stays installed after its recording stops.
 */
public final class ProfilingSignal {
    private ProfilingSignal() {}

    /** SIGPROF on Linux, on every architecture a JDK 25 runs on there. */
    private static final int SIGPROF = 27;
    /** glibc's and musl's {@code struct sigaction} begin with the handler; 256 bytes hold either whole. */
    private static final long SIGACTION_BYTES = 256;
    /** {@code Dl_info}: file name, base, symbol name, symbol address. */
    private static final long DL_INFO_BYTES = 4 * ValueLayout.ADDRESS.byteSize();

    /**
     * The file the code handling SIGPROF comes from, when that is not libjvm: another profiler's.
     * Empty where it is not handled, handled by JFR, or the question cannot be asked (not Linux, no
     * {@code sigaction} or {@code dladdr}).
     */
    public static Optional<String> foreignHandler() {
        if (!System.getProperty("os.name", "").startsWith("Linux")) return Optional.empty();
        try {
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            Optional<MemorySegment> sigaction = libc.find("sigaction");
            if (sigaction.isEmpty()) return Optional.empty();
            MethodHandle read = linker.downcallHandle(sigaction.get(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment old = arena.allocate(SIGACTION_BYTES, 8);
                if ((int) read.invokeExact(SIGPROF, MemorySegment.NULL, old) != 0) return Optional.empty();
                long handler = old.get(ValueLayout.ADDRESS, 0).address();
                if (handler == 0 || handler == 1) return Optional.empty();  // SIG_DFL, SIG_IGN
                String file = fileOf(linker, libc, arena, handler);
                // Unknown: maybe JFR's own handler, which stays after its recording; a needless fallback costs more than a try.
                return file == null || file.contains("libjvm") ? Optional.empty() : Optional.of(file);
            }
        } catch (Throwable t) {
            return Optional.empty();
        }
    }

    /** The shared object holding {@code address}, by {@code dladdr}; null where it cannot say. */
    private static String fileOf(Linker linker, SymbolLookup libc, Arena arena, long address) throws Throwable {
        Optional<MemorySegment> dladdr = libc.find("dladdr");
        if (dladdr.isEmpty()) return null;
        MethodHandle find = linker.downcallHandle(dladdr.get(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
        MemorySegment info = arena.allocate(DL_INFO_BYTES, 8);
        if ((int) find.invokeExact(MemorySegment.ofAddress(address), info) == 0) return null;
        MemorySegment name = info.get(ValueLayout.ADDRESS, 0);
        return name.equals(MemorySegment.NULL) ? null : name.reinterpret(4096).getString(0);
    }
}
