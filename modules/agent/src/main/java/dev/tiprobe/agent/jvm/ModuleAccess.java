package dev.tiprobe.agent.jvm;

import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Set;

/**
 * The JDK's Instrumentation, when the agent was given one (premain, agentmain): how the agent
 * reaches a package a named module keeps to itself. Tracing opens an argument's package to the
 * probe's module to read its fields. The grant goes to a whole module: when the receiving code
 * sits in an unnamed module, every class of that module gains the access too, which is why what
 * only needs to call a method of the JDK does so through JNI instead ({@code Jvmti.call}). In
 * process (tests) there is no Instrumentation, and what needs it is skipped.
 */
public final class ModuleAccess {
    private static volatile Instrumentation instrumentation;

    private ModuleAccess() {}

    public static void use(Instrumentation inst) {
        instrumentation = inst;
    }

    /** Opens {@code type}'s package to {@code to} for deep reflection; false when it cannot be. */
    public static boolean openTo(Class<?> type, Module to) {
        Module module = type.getModule();
        String pkg = type.getPackageName();
        if (!module.isNamed() || module.isOpen(pkg, to)) return true;
        Instrumentation inst = instrumentation;
        if (inst == null || !inst.isModifiableModule(module)) return false;
        inst.redefineModule(module, Set.of(), Map.of(), Map.of(pkg, Set.of(to)), Set.of(), Map.of());
        return true;
    }
}
