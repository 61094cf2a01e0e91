package dev.tiprobe.jvmti;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The local-reference pitfall, provoked: facade calls that pass and receive JNI references run
 * while other threads run Java code and force GCs, which move objects and clear stale handles.
 * Every answer is checked against Java's own view of the same class. Prints "ok" and exits 0, or
 * prints each wrong answer and exits 1. Usage: {@code LocalReferenceStress <seconds>}.
 */
public final class LocalReferenceStress {
    /** A VM-internal class whose mirror is int[]: JVMTI names it, Java cannot. */
    static final String FILLER = "[Ljdk/internal/vm/FillerElement;";

    private LocalReferenceStress() {}

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 10;
        Jvmti jvmti = Jvmti.get();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong wrong = new AtomicLong();
        List<Thread> others = new ArrayList<>();
        others.add(Thread.ofPlatform().daemon().start(() -> {
            while (!stop.get()) {
                System.gc();
                byte[][] junk = new byte[2000][];
                for (int i = 0; i < junk.length; i++) junk[i] = new byte[256];
            }
        }));
        for (int t = 0; t < 2; t++) {
            others.add(Thread.ofPlatform().daemon().start(() -> {
                StringBuilder sb = new StringBuilder();
                while (!stop.get()) {
                    sb.setLength(0);
                    for (int i = 0; i < 1000; i++) sb.append(i).append(',');
                    if (sb.length() == 0) throw new AssertionError();
                }
            }));
        }
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        long rounds = 0;
        while (System.nanoTime() < deadline) {
            Class<?>[] loaded = jvmti.loadedClasses();
            for (int i = 0; i < loaded.length; i += 97) {
                Class<?> c = loaded[i];
                String signature = jvmti.classSignature(c).signature();
                if (!signature.equals(FILLER) && !signature.equals(c.descriptorString())) {
                    System.out.println("WRONG classSignature: " + signature + " for " + c.descriptorString());
                    wrong.incrementAndGet();
                }
                if (jvmti.classLoader(c) != c.getClassLoader()) {
                    System.out.println("WRONG classLoader for " + c);
                    wrong.incrementAndGet();
                }
            }
            for (Jvmti.StackFrame f : jvmti.stackTrace(null, 0, 32)) {
                Class<?> declaring = jvmti.methodDeclaringClass(f.methodId());
                if (declaring == null || jvmti.classMethods(declaring).length == 0) {
                    System.out.println("WRONG declaring class " + declaring);
                    wrong.incrementAndGet();
                }
            }
            if (rounds % 20 == 0) {
                for (Jvmti.ClassSnapshot s : jvmti.snapshotLoadedClasses()) {
                    if (!s.signature().equals(FILLER) && !s.signature().equals(s.type().descriptorString())) {
                        System.out.println("WRONG snapshot: " + s.signature() + " for " + s.type().descriptorString());
                        wrong.incrementAndGet();
                    }
                }
            }
            rounds++;
        }
        stop.set(true);
        for (Thread t : others) t.join();
        System.out.println(wrong.get() == 0 ? "ok after " + rounds + " rounds" : wrong.get() + " wrong answers");
        System.exit(wrong.get() == 0 ? 0 : 1);
    }
}
