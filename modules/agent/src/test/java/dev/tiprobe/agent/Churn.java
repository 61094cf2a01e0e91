package dev.tiprobe.agent;

import dev.tiprobe.agent.registry.Registry;
import dev.tiprobe.ids.ClassToken;
import dev.tiprobe.ids.IdMap;
import dev.tiprobe.jvmti.Jvmti;
import dev.tiprobe.jvmti.JvmtiError;
import dev.tiprobe.jvmti.JvmtiException;
import dev.tiprobe.testing.GeneratedClasses;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Classes load and unload without pause while frames and tokens are resolved, and every answer is
 * checked against a second source. Run in a JVM of its own by {@link ChurnTest}:
 * {@code Churn <seconds>}. Prints a summary; exits 1 on any wrong answer or unbounded growth.
 */
public final class Churn {
    static final int CHURN_THREADS = 4;
    static final int NAMES_PER_THREAD = 8;

    private Churn() {}

    public static void main(String[] args) throws Exception {
        long seconds = Long.parseLong(args[0]);
        Jvmti jvmti = Jvmti.get();
        Registry registry = Registry.start(jvmti);
        IdMap map = registry.map();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong defined = new AtomicLong(), frames = new AtomicLong(), stale = new AtomicLong(),
                reverse = new AtomicLong(), wrong = new AtomicLong();
        List<Thread> threads = new ArrayList<>();

        for (int t = 0; t < CHURN_THREADS; t++) {
            int n = t;
            threads.add(Thread.ofPlatform().name("churn-" + t).start(() -> {
                while (!stop.get()) {
                    GeneratedClasses.Loader loader = new GeneratedClasses.Loader();
                    for (int i = 0; i < NAMES_PER_THREAD; i++) loader.define("gen.Churn" + n + "_" + i);
                    GeneratedClasses.hidden(java.lang.invoke.MethodHandles.lookup(), "HiddenChurn" + n);
                    defined.addAndGet(NAMES_PER_THREAD + 1);
                    sleep(2);  // hundreds of loaders a second per thread: busy, yet a pace GC can follow
                }
            }));
        }
        threads.add(Thread.ofPlatform().name("gc").start(() -> {
            while (!stop.get()) {
                System.gc();
                sleep(100);
            }
        }));
        threads.add(Thread.ofPlatform().name("walker").start(() -> {
            while (!stop.get()) {
                for (Jvmti.ThreadStack stack : jvmti.allStackTraces(64)) {
                    for (Jvmti.StackFrame f : stack.frames()) {
                        frames.incrementAndGet();
                        map.pinned(() -> {
                            IdMap.MethodEntry e = registry.resolve(f.methodId());
                            if (e == null) {
                                stale.incrementAndGet();
                                return null;
                            }
                            try {  // the second source: ask JVMTI again, while unloads are held off
                                Jvmti.MethodName name = jvmti.methodName(f.methodId());
                                Class<?> declaring = jvmti.methodDeclaringClass(f.methodId());
                                if (!name.name().equals(e.token().name()) || !name.descriptor().equals(e.token().descriptor())
                                        || !ClassToken.stableName(declaring.getName()).equals(e.token().owner().binaryName())) {
                                    wrong.incrementAndGet();
                                    System.out.println("WRONG frame " + e.token() + " vs " + declaring.getName() + "." + name.name());
                                }
                            } catch (JvmtiException x) {
                                if (x.error() != JvmtiError.INVALID_METHODID) throw x;
                                stale.incrementAndGet();  // the VM unloaded it; ObjectFree is on its way
                            }
                            return null;
                        });
                    }
                }
            }
        }));
        threads.add(Thread.ofPlatform().name("reverse").start(() -> {
            while (!stop.get()) {
                for (int t = 0; t < CHURN_THREADS; t++) {
                    for (int i = 0; i < NAMES_PER_THREAD; i++) {
                        String name = "gen.Churn" + t + "_" + i;
                        for (IdMap.ClassEntry e : map.classesNamed(name)) {
                            reverse.incrementAndGet();
                            Class<?> c = registry.classOfTag(e.tag());  // null once it unloaded
                            if (c != null && !c.getName().equals(name)) {
                                wrong.incrementAndGet();
                                System.out.println("WRONG reverse " + name + " -> " + c.getName());
                            }
                        }
                    }
                }
            }
        }));

        List<IdMap.Counts> samples = new ArrayList<>();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
            sleep(1000);
            samples.add(map.counts());
        }
        stop.set(true);
        for (Thread t : threads) t.join();
        registry.close();

        IdMap.Counts last = map.counts();
        // Bounded: the tables stop growing once loads and unloads balance, and tokens grow only with
        // the peak of simultaneously live loaders (a loader ordinal is reused once its holder dies),
        // not with the number of loads: a tiny fraction of what unloaded in the second half.
        IdMap.Counts half = samples.get(samples.size() / 2);
        long unloadsSinceHalf = last.unloadedClasses() - half.unloadedClasses();
        long newTokensSinceHalf = (last.classTokens() - half.classTokens()) + (last.methodTokens() - half.methodTokens()) / 4L;
        // Tokens grow with the peak number of loaders alive at once (a collected loader's ordinal
        // is reused), which rises when the GC lags on a loaded machine: unbounded growth would be
        // a new token per unload; 10 % of the unloads in the second half leaves room for GC lag.
        boolean bounded = last.slots() <= 2 * half.slots() && newTokensSinceHalf * 10 < unloadsSinceHalf;
        System.out.printf("defined %d classes, unloaded %d, frames %d (stale %d), reverse answers %d, wrong %d%n",
                defined.get(), last.unloadedClasses(), frames.get(), stale.get(), reverse.get(), wrong.get());
        System.out.println("counts at the middle: " + half);
        System.out.println("counts at the end:    " + last);
        System.out.println(wrong.get() == 0 && bounded && last.unloadedClasses() > 1000 ? "ok" : "FAILED (bounded=" + bounded + ")");
        System.exit(wrong.get() == 0 && bounded && last.unloadedClasses() > 1000 ? 0 : 1);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
