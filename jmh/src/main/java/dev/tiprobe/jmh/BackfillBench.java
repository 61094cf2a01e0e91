package dev.tiprobe.jmh;

import dev.tiprobe.jvmti.Jvmti;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Mapping every loaded class and method, the backfill an agent does when it attaches:
 * GetLoadedClasses, GetClassSignature, GetClassMethods and GetMethodName for everything, all
 * Deallocated. tiprobe's facade ({@link Jvmti#snapshotLoadedClasses()}, which also turns every
 * name into a String) against the same JVMTI calls made by C in the same JVM.
 *
 * <p>How to run: {@code ./mvnw25 -pl jmh -am package -DskipTests && $JAVA_HOME/bin/java -jar
 * jmh/target/benchmarks.jar BackfillBench} (gcc must be on PATH).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
public class BackfillBench {
    /** The issue asks for a JVM with at least 10,000 loaded classes. */
    static final int MIN_LOADED_CLASSES = 10_000;

    private Jvmti jvmti;
    private CBaseline c;

    @Setup
    public void setUp() throws Throwable {
        loadJdkClasses(MIN_LOADED_CLASSES);
        jvmti = Jvmti.get();
        c = CBaseline.load();
        int classes = jvmti.loadedClasses().length;
        long javaMethods = facade();
        long cMethods = cBaseline();
        if (classes < MIN_LOADED_CLASSES) throw new IllegalStateException("only " + classes + " classes loaded");
        if (Math.abs(javaMethods - cMethods) > cMethods / 100) {
            throw new IllegalStateException("facade named " + javaMethods + " methods, C " + cMethods);
        }
        System.out.printf("%n%d loaded classes, %d methods%n", classes, cMethods);
    }

    @Benchmark
    public long facade() {
        long methods = 0;
        for (Jvmti.ClassSnapshot s : jvmti.snapshotLoadedClasses()) {
            if (s.methods() != null) methods += s.methods().size();
        }
        return methods;
    }

    @Benchmark
    public long cBaseline() throws Throwable {
        return (long) c.backfill.invokeExact();
    }

    /** Loads and links JDK classes (no initialization) until {@code target} classes are loaded. */
    static void loadJdkClasses(int target) throws IOException {
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        ClassLoader loader = ClassLoader.getPlatformClassLoader();
        int loaded = 0;
        for (String module : List.of("java.base", "java.desktop", "java.xml", "java.sql", "java.management",
                "java.naming", "java.net.http", "jdk.compiler", "java.compiler", "jdk.jfr")) {
            try (Stream<Path> files = Files.walk(jrt.getPath("/modules", module))) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    String f = p.toString();
                    if (!f.endsWith(".class") || f.endsWith("module-info.class")) continue;
                    String name = f.substring(("/modules/" + module + "/").length(), f.length() - 6).replace('/', '.');
                    try {
                        Class.forName(name, false, loader).getDeclaredMethods();  // links, so methods exist
                        loaded++;
                    } catch (Throwable ignored) {
                        // Some classes need what a headless benchmark JVM lacks; others are enough.
                    }
                    if (loaded >= target) return;
                }
            }
        }
    }
}
