package example.workload;

import dev.tiprobe.agent.registry.Registry;
import dev.tiprobe.agent.tracing.Tracing;
import dev.tiprobe.ids.IdMap;
import dev.tiprobe.jvmti.Jvmti;
import dev.tiprobe.options.AgentOptions.TraceMode;

import java.util.concurrent.CountDownLatch;

/**
 * A method that is running when tracing retransforms its class keeps running as the old
 * version, under a jmethodID its class does not list: a stack walk must still name it. Prints
 * one line per frame of the blocked thread: {@code frame <obsolete> <name or null>}.
 */
public class ObsoleteFrame {
    static final class Holder {
        static void hold(CountDownLatch entered, CountDownLatch release) throws InterruptedException {
            entered.countDown();
            release.await();
        }
    }

    public static void main(String[] args) throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = Thread.ofPlatform().name("holder").start(() -> {
            try {
                Holder.hold(entered, release);
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        });
        entered.await();
        Jvmti jvmti = Jvmti.get();
        try (Registry registry = Registry.start(jvmti)) {
            Tracing.Session session = Tracing.start("example.workload.ObsoleteFrame$Holder::hold", TraceMode.COUNT);
            for (Jvmti.ThreadStack stack : jvmti.allStackTraces(16)) {
                if (stack.thread() != holder) continue;
                for (Jvmti.StackFrame f : stack.frames()) {
                    IdMap.MethodEntry m = registry.resolve(f.methodId());
                    System.out.println("frame " + jvmti.isMethodObsolete(f.methodId()) + " " + (m == null ? null : m.token().name()));
                }
            }
            session.stop();
        }
        release.countDown();
        holder.join();
    }
}
