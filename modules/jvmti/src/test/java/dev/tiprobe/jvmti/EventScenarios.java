package dev.tiprobe.jvmti;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Scenarios that need a JVM of their own; run by {@link MoreEventsTest} in a JVM of their own (Command.onTestClassPath). */
public final class EventScenarios {
    private static volatile CompletableFuture<Jvmti> fromPremain;

    private EventScenarios() {}

    /** A -javaagent start: no VM exists yet, so acquisition must wait. */
    public static void premain(String options) {
        try {
            Jvmti.get();
            System.out.println("in premain: acquired at once (unexpected)");
        } catch (JvmtiUnavailableException e) {
            System.out.println("in premain: no VM yet (" + e.getMessage() + ")");
        }
        fromPremain = Jvmti.whenReady();
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "vmdeath" -> Jvmti.get().events().on(Event.VM_DEATH, () -> System.out.println("VMDeath handler ran"));
            case "premain" -> {
                Jvmti jvmti = fromPremain.get(30, TimeUnit.SECONDS);
                System.out.println("acquired after premain: JVMTI " + jvmti.versionString().split("\\.")[0]
                        + ", " + jvmti.loadedClasses().length + " classes");
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }
}
