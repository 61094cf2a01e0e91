package dev.tiprobe.jvmti.demo;

import dev.tiprobe.jvmti.Capability;
import dev.tiprobe.jvmti.Event;
import dev.tiprobe.jvmti.Events;
import dev.tiprobe.jvmti.Jvmti;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The foundation's demonstration, until the CLI exists: acquires JVMTI in this JVM and prints its
 * version, the capabilities a Java agent can have, the loaded classes, and a few ClassPrepare events.
 */
public final class JvmtiDemo {
    private JvmtiDemo() {}

    public static void main(String[] args) throws Exception {
        Jvmti jvmti = Jvmti.get();
        System.out.printf("JVMTI version: %s (0x%08x)%n", jvmti.versionString(), jvmti.version());
        var potential = jvmti.potentialCapabilities();
        System.out.printf("Potential capabilities in the live phase: %d of %d%n", potential.size(), Capability.values().length);
        for (Capability c : potential) System.out.println("  " + c.fieldName());
        System.out.printf("Loaded classes: %d%n", jvmti.loadedClasses().length);

        List<String> prepared = new CopyOnWriteArrayList<>();
        Events.Registration registration = jvmti.events().on(Event.CLASS_PREPARE, (thread, type) ->
                prepared.add(type.getName() + " on " + thread.getName()));
        try {
            // Classes this JVM has not needed yet: a JDK class, a lambda and an anonymous class.
            new java.util.concurrent.Phaser(1).arriveAndDeregister();
            Runnable lambda = () -> { };
            lambda.run();
            new Object() { }.hashCode();
        } finally {
            registration.close();
        }
        System.out.printf("ClassPrepare events while loading a few classes: %d%n", prepared.size());
        // The facade's own classes (loaded lazily on first use) are counted, not listed.
        prepared.stream().filter(p -> !p.startsWith("dev.tiprobe.jvmti.") || p.startsWith("dev.tiprobe.jvmti.demo."))
                .forEach(p -> System.out.println("  " + p));
        jvmti.shutdown();
    }
}
