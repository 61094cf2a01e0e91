package dev.tiprobe.agent.sampling;

import dev.tiprobe.agent.ModuleAccess;
import dev.tiprobe.jvmti.Capability;
import dev.tiprobe.jvmti.Jvmti;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * The virtual threads that exist, for the wall view of where they wait. JVMTI lists platform
 * threads only, and its VirtualThreadStart event sees only threads started after it is on; the
 * JDK itself keeps every virtual thread in a tree of thread containers (the root one, and one per
 * executor or structured scope; {@code jdk.trackAllThreads}, on by default, puts threads started
 * on their own in the root), which is where {@code jcmd Thread.dump_to_file} finds them. Those
 * containers live in {@code jdk.internal.vm}, which {@link ModuleAccess} exports to the agent
 * alone. Their classes are looked up among the loaded ones, never loaded: a JVM that has started
 * a thread has them.
 *
 * <p>Their stacks need JVMTI's {@code can_support_virtual_threads}, which makes the JDK tell JVMTI
 * of every mount and unmount from then on, a small cost per switch that stays for the JVM's life.
 */
final class VirtualThreads {
    private static final String PACKAGE = "jdk.internal.vm";
    private final MethodHandle root;
    private final MethodHandle children;
    private final MethodHandle threads;

    private VirtualThreads(MethodHandle root, MethodHandle children, MethodHandle threads) {
        this.root = root;
        this.children = children;
        this.threads = threads;
    }

    /**
     * Reaches the JDK's thread containers and adds can_support_virtual_threads.
     *
     * @throws UnsupportedOperationException saying why virtual threads cannot be listed here
     */
    static VirtualThreads find(Jvmti jvmti) {
        Class<?> containers = null;
        Class<?> container = null;
        for (Class<?> c : jvmti.loadedClasses()) {
            if (c.getName().equals(PACKAGE + ".ThreadContainers")) containers = c;
            if (c.getName().equals(PACKAGE + ".ThreadContainer")) container = c;
        }
        if (containers == null || container == null) throw new UnsupportedOperationException("the JDK has no thread containers");
        if (!jvmti.potentialCapabilities().contains(Capability.CAN_SUPPORT_VIRTUAL_THREADS)) {
            throw new UnsupportedOperationException("JVMTI cannot walk virtual threads here");
        }
        if (!ModuleAccess.exportTo(container.getModule(), PACKAGE, VirtualThreads.class.getModule())) {
            throw new UnsupportedOperationException("the agent was loaded without the JDK's Instrumentation");
        }
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            MethodHandle root = lookup.findStatic(containers, "root", MethodType.methodType(container));
            MethodHandle children = lookup.findVirtual(container, "children", MethodType.methodType(Stream.class));
            MethodHandle threads = lookup.findVirtual(container, "threads", MethodType.methodType(Stream.class));
            jvmti.addCapabilities(Capability.CAN_SUPPORT_VIRTUAL_THREADS);
            return new VirtualThreads(root, children, threads);
        } catch (ReflectiveOperationException e) {
            throw new UnsupportedOperationException("the JDK's thread containers are not as expected (" + e + ")", e);
        }
    }

    /** A fair pick of the virtual threads alive now, at most {@code most}, and how many there were. */
    record Pick(List<Thread> threads, int alive) {}

    /**
     * Up to {@code most} of the virtual threads alive now, each as likely as any other to be
     * picked (reservoir sampling over the containers' tree): a program may run millions, and a
     * second of wall sampling looks at a few hundred.
     */
    Pick pick(int most) {
        List<Thread> picked = new ArrayList<>(Math.min(most, 1024));
        int[] alive = {0};
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try {
            List<Object> todo = new ArrayList<>();
            todo.add(root.invoke());
            while (!todo.isEmpty()) {
                Object c = todo.removeLast();
                ((Stream<?>) children.invoke(c)).forEach(todo::add);
                ((Stream<?>) threads.invoke(c)).forEach(o -> {
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
        } catch (Throwable e) {
            // a container changed under the walk (threads start and end): what was found stands
        }
        return new Pick(picked, alive[0]);
    }
}
