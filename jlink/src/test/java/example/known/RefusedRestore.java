package example.known;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.ProtectionDomain;

/**
 * A loop in {@code main} calling {@link Worker#work}, a class no loop runs in, and a second agent
 * of its own: this class, loaded with {@code -javaagent:<jar>=<marker file>}. Once the marker file
 * exists, the agent hands the JVM bytes no JVM accepts for {@code Worker}, so every
 * retransformation of it fails, as another agent's broken transformer would make tiprobe's restore
 * at stop fail. Loaded with {@code -javaagent:<jar>=after-first}, it lets the first
 * retransformation of {@code Worker} (tiprobe's probes going in) through and breaks every later
 * one. {@link Idle} is loaded and never called. Prints "ready" once the loop runs, then runs for
 * the seconds its argument gives.
 */
public final class RefusedRestore {
    public static final class Worker {
        static long work(long x) {
            return x * 31 + 7;
        }
    }

    public static final class Idle {
        static void load() {
        }

        static long never(long x) {
            return x - 1;
        }
    }

    public static void premain(String refuse, Instrumentation inst) {
        boolean afterFirst = refuse.equals("after-first");
        Path marker = afterFirst ? null : Path.of(refuse);
        java.util.concurrent.atomic.AtomicInteger retransformed = new java.util.concurrent.atomic.AtomicInteger();
        inst.addTransformer(new ClassFileTransformer() {
            @Override
            public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain, byte[] bytes) {
                if (!"example/known/RefusedRestore$Worker".equals(name) || redefined == null) return null;
                boolean breaks = afterFirst ? retransformed.incrementAndGet() > 1 : Files.exists(marker);
                return breaks ? new byte[] {0} : null;
            }
        }, true);
    }

    public static void main(String[] args) throws Exception {
        Idle.load();
        long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        long seed = 1;
        System.out.println("ready");
        while (System.nanoTime() < end) {
            for (int i = 0; i < 1000; i++) seed = Worker.work(seed);
            Thread.sleep(1);
        }
        System.out.println(seed);
    }
}
