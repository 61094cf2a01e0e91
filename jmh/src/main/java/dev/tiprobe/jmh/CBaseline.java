package dev.tiprobe.jmh;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The C side of the benchmarks: {@code src/main/c/baseline.c}, compiled with gcc against this JDK's
 * headers when a benchmark sets up, loaded into the benchmark JVM, and called through FFM.
 */
final class CBaseline {
    static final Linker LINKER = Linker.nativeLinker();

    final MemorySegment callN;
    final MemorySegment cIdentity;
    final MethodHandle backfill;
    final MethodHandle callNHandle;

    private CBaseline(SymbolLookup lib) {
        backfill = LINKER.downcallHandle(lib.find("tiprobe_backfill").orElseThrow(), FunctionDescriptor.of(JAVA_LONG));
        callN = lib.find("tiprobe_call_n").orElseThrow();
        callNHandle = LINKER.downcallHandle(callN, FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG));
        cIdentity = lib.find("tiprobe_c_identity").orElseThrow();
    }

    /** Compiles and loads the baseline and lets it acquire its own jvmtiEnv. */
    static CBaseline load() throws Throwable {
        Path dir = Files.createTempDirectory("tiprobe-jmh");
        Path source = dir.resolve("baseline.c");
        try (InputStream in = CBaseline.class.getResourceAsStream("/c/baseline.c")) {
            if (in == null) throw new IllegalStateException("baseline.c is not on the class path");
            Files.copy(in, source);
        }
        Path javaHome = Path.of(System.getProperty("java.home"));
        Path lib = dir.resolve("libtiprobebaseline.so");
        run(List.of("gcc", "-O2", "-shared", "-fPIC", "-I", javaHome.resolve("include").toString(),
                "-I", javaHome.resolve("include/linux").toString(), "-o", lib.toString(), source.toString(),
                "-L", javaHome.resolve("lib/server").toString(), "-ljvm",
                "-Wl,-rpath," + javaHome.resolve("lib/server")));
        SymbolLookup lookup = SymbolLookup.libraryLookup(lib, Arena.global());
        MethodHandle init = LINKER.downcallHandle(lookup.find("tiprobe_baseline_init").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT));
        int rc = (int) init.invokeExact();
        if (rc != 0) throw new IllegalStateException("the C baseline could not acquire JVMTI: " + rc);
        return new CBaseline(lookup);
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException("gcc failed: " + command + "\n" + out);
        }
    }
}
