package dev.tiprobe.jvmti;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * The CPU's time-stamp counter as a method handle {@code () -> long}, for time mode's clock: a read
 * costs about half of {@code System.nanoTime()} here (BENCHMARKS.md). Java has no instruction for
 * it, so ten bytes of x86-64 machine code ({@link #READ_TSC}) go into a page of their own, made
 * executable, and are called through the FFM linker: no C is built or shipped.
 *
 * <p>Offered only on Linux x86-64 where the counter is invariant (the kernel reports
 * {@code constant_tsc} and {@code nonstop_tsc}: it ticks at one rate whatever a core's frequency or
 * sleep state, and is synchronized across cores), where the page can be mapped and made
 * executable, and where a first read looks sane against {@code System.nanoTime()}. Anything else
 * gives an empty reader and a reason, and the caller keeps {@code System.nanoTime()}.
 */
public final class TimeStampCounter {
    private TimeStampCounter() {}

    /**
     * {@code rdtsc} (0F 31: the counter into EDX:EAX), {@code shl rdx, 32} (48 C1 E2 20),
     * {@code or rax, rdx} (48 09 D0: the 64-bit count in RAX, the return register), {@code ret} (C3).
     */
    static final byte[] READ_TSC = {0x0F, 0x31, 0x48, (byte) 0xC1, (byte) 0xE2, 0x20, 0x48, 0x09, (byte) 0xD0, (byte) 0xC3};

    private static final int PAGE = 4096;
    private static final int PROT_READ = 1;
    private static final int PROT_WRITE = 2;
    private static final int PROT_EXEC = 4;
    private static final int MAP_PRIVATE = 0x02;
    private static final int MAP_ANONYMOUS = 0x20;

    /** {@code ret} (C3) alone: a function that does nothing, to measure what a downcall itself costs. */
    static final byte[] RETURN = {(byte) 0xC3};

    /** Either the reader, or why there is none. */
    private record Outcome(MethodHandle reader, String why) {}

    private static volatile Outcome outcome;

    /** The counter's reader, made once per JVM; empty where it is not offered ({@link #unavailableReason()}). */
    public static Optional<MethodHandle> reader() {
        return Optional.ofNullable(outcome().reader());
    }

    /** Why there is no reader, or null when there is one. */
    public static String unavailableReason() {
        return outcome().why();
    }

    private static synchronized Outcome outcome() {
        if (outcome == null) {
            try {
                outcome = make();
            } catch (Throwable t) {
                outcome = new Outcome(null, "the counter could not be read: " + t);
            }
        }
        return outcome;
    }

    private static Outcome make() throws Throwable {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!arch.equals("amd64") && !arch.equals("x86_64")) return new Outcome(null, "not x86-64 (" + arch + ")");
        if (!invariantCounter()) return new Outcome(null, "the CPU does not report an invariant counter (constant_tsc, nonstop_tsc)");
        MethodHandle reader = function(READ_TSC);
        if (reader == null) return new Outcome(null, "no executable page could be mapped");
        double perNano = ticksPerNanosecond(reader);
        if (!(perNano > 0.1 && perNano < 20)) return new Outcome(null, String.format("the counter runs at an unlikely %.3f ticks/ns", perNano));
        return new Outcome(reader, null);
    }

    /**
     * {@code code} in a page of its own, made executable, as a handle {@code () -> long}; null when
     * the page cannot be mapped or made executable. The page is never unmapped: the handle lives as
     * long as the JVM.
     */
    private static MethodHandle function(byte[] code) throws Throwable {
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        MethodHandle mmap = linker.downcallHandle(libc.find("mmap").orElseThrow(), FunctionDescriptor.of(ValueLayout.ADDRESS,
                ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
        MethodHandle mprotect = linker.downcallHandle(libc.find("mprotect").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
        MemorySegment mapped = (MemorySegment) mmap.invokeExact(MemorySegment.NULL, (long) PAGE, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0L);
        if (mapped.address() == -1L || mapped.address() == 0L) return null;
        MemorySegment page = mapped.reinterpret(PAGE);
        MemorySegment.copy(code, 0, page, ValueLayout.JAVA_BYTE, 0, code.length);
        if ((int) mprotect.invokeExact(page, (long) PAGE, PROT_READ | PROT_EXEC) != 0) return null;
        return linker.downcallHandle(page, FunctionDescriptor.of(ValueLayout.JAVA_LONG), Linker.Option.critical(false));
    }

    /**
     * For EnterPathBench only: a function that returns at once, called as the counter's reader is,
     * so a benchmark can tell the downcall's own cost from the read's. Empty where the reader is.
     */
    public static Optional<MethodHandle> emptyFunction() {
        if (reader().isEmpty()) return Optional.empty();
        try {
            return Optional.ofNullable(function(RETURN));
        } catch (Throwable t) {
            return Optional.empty();
        }
    }

    /** Ticks per nanosecond over about 5 ms against {@code System.nanoTime()}. */
    static double ticksPerNanosecond(MethodHandle reader) throws Throwable {
        long t0 = (long) reader.invokeExact();
        long n0 = System.nanoTime();
        Thread.sleep(5);
        long t1 = (long) reader.invokeExact();
        long n1 = System.nanoTime();
        return (double) (t1 - t0) / Math.max(1, n1 - n0);
    }

    /** Linux's cpuinfo flags name both constant_tsc and nonstop_tsc. */
    private static boolean invariantCounter() {
        try {
            String info = Files.readString(Path.of("/proc/cpuinfo"));
            return info.contains(" constant_tsc") && info.contains(" nonstop_tsc");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
