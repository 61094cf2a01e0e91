package dev.tiprobe.agent.sampling;

import dev.tiprobe.jvmti.Capability;
import dev.tiprobe.jvmti.Jvmti;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * The virtual threads that exist, for the wall view of where they wait. JVMTI lists platform
 * threads only, and its VirtualThreadStart event sees only threads started after it is on; the
 * JDK itself keeps every virtual thread in a tree of thread containers (the root one, and one per
 * executor or structured scope; {@code jdk.trackAllThreads}, on by default, puts threads started
 * on their own in the root), which is where {@code jcmd Thread.dump_to_file} finds them. Those
 * containers live in {@code jdk.internal.vm}, which the JDK exports to nobody: they are read
 * through JNI calls ({@link Jvmti#call}), which check no module's access, so nothing is exported
 * to the agent's module and with it to the application's class path. Their classes are looked up
 * among the loaded ones, never loaded: the JDK loads them with the first executor, fork/join pool
 * or virtual thread, so until then (looked for again every {@link #LOOK_AGAIN_NANOS}) there is no
 * virtual thread to find.
 *
 * <p>Their stacks need JVMTI's {@code can_support_virtual_threads}, which makes the JDK tell JVMTI
 * of every mount and unmount from then on, a small cost per switch that stays for the JVM's life:
 * so it is added once the first virtual thread is found, and a program that never starts one
 * never pays it.
 */
final class VirtualThreads {
    private static final String PACKAGE = "jdk.internal.vm";
    private static final String CONTAINER = "L" + PACKAGE.replace('.', '/') + "/ThreadContainer;";
    private static final String STREAM = "()Ljava/util/stream/Stream;";
    static final long LOOK_AGAIN_NANOS = 5_000_000_000L;

    private final Jvmti jvmti;
    private Class<?> containers;  // null until the JDK has loaded them
    private Class<?> container;
    private long lookedAt;
    private boolean capable;

    private VirtualThreads(Jvmti jvmti) {
        this.jvmti = jvmti;
    }

    /**
     * Virtual threads' finder, where JVMTI could walk them (can_support_virtual_threads, added
     * once the first one is found).
     *
     * @throws UnsupportedOperationException saying why virtual threads cannot be walked here
     */
    static VirtualThreads start(Jvmti jvmti) {
        if (!jvmti.potentialCapabilities().contains(Capability.CAN_SUPPORT_VIRTUAL_THREADS)) {
            throw new UnsupportedOperationException("JVMTI cannot walk virtual threads here");
        }
        return new VirtualThreads(jvmti);
    }

    /** A fair pick of the virtual threads alive now, at most {@code most}, in random order, and how many there were. */
    record Pick(List<Thread> threads, int alive) {}

    private static final Pick NONE = new Pick(List.of(), 0);

    /**
     * Up to {@code most} of the virtual threads alive now, each as likely as any other to be
     * picked (reservoir sampling over the containers' tree) and in random order: a program may run
     * millions, and a second of wall sampling looks at a few hundred. Sampler thread only.
     *
     * @throws UnsupportedOperationException when JVMTI refuses to walk virtual threads after all
     */
    Pick pick(int most) {
        List<Thread> picked = new ArrayList<>(Math.min(most, 1024));
        int[] alive = {0};
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try {
            if (!found()) return NONE;
            List<Object> todo = new ArrayList<>();
            todo.add(jvmti.call(containers, null, "root", "()" + CONTAINER));
            while (!todo.isEmpty()) {
                Object c = todo.removeLast();
                ((Stream<?>) jvmti.call(container, c, "children", STREAM)).forEach(todo::add);
                ((Stream<?>) jvmti.call(container, c, "threads", STREAM)).forEach(o -> {
                    if (!(o instanceof Thread t) || !t.isVirtual()) return;
                    int seen = alive[0]++;
                    if (seen < most) {
                        picked.add(t);
                    } else {
                        int slot = random.nextInt(seen + 1);
                        if (slot < most) picked.set(slot, t);
                    }
                });
            }
        } catch (RuntimeException e) {
            // a container changed under the walk (threads start and end): what was found stands
        }
        if (!picked.isEmpty() && !capable) {
            try {
                jvmti.addCapabilities(Capability.CAN_SUPPORT_VIRTUAL_THREADS);  // before the first walk of one
            } catch (RuntimeException refused) {
                throw new UnsupportedOperationException("JVMTI refused to walk virtual threads: " + refused.getMessage(), refused);
            }
            capable = true;
        }
        Collections.shuffle(picked, random);
        return new Pick(picked, alive[0]);
    }

    /** Whether the JDK's thread containers are loaded (looked for among the loaded classes now and then). */
    private boolean found() {
        if (containers != null) return true;
        long now = System.nanoTime();
        if (lookedAt != 0 && now - lookedAt < LOOK_AGAIN_NANOS) return false;
        lookedAt = now;
        Class<?> all = null;
        Class<?> one = null;
        for (Class<?> c : jvmti.loadedClasses()) {
            if (c.getName().equals(PACKAGE + ".ThreadContainers")) all = c;
            if (c.getName().equals(PACKAGE + ".ThreadContainer")) one = c;
        }
        if (all == null || one == null) return false;
        container = one;
        containers = all;
        return true;
    }
}
