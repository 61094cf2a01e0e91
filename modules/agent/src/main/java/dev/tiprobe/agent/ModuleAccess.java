package dev.tiprobe.agent;

import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Set;

/**
 * The JDK's Instrumentation, when the agent was given one (premain, agentmain): how the agent
 * reaches a package a named module keeps to itself, for its own code only (the program's access
 * is unchanged). Tracing opens an argument's package to the probe to read its fields; sampling
 * reads the JDK's thread containers to find virtual threads. In process (tests) there is none,
 * and what needs it is skipped.
 */
public final class ModuleAccess {
    private static volatile Instrumentation instrumentation;

    private ModuleAccess() {}

    public static void use(Instrumentation inst) {
        instrumentation = inst;
    }

    /** Opens {@code type}'s package to {@code to} for deep reflection; false when it cannot be. */
    public static boolean openTo(Class<?> type, Module to) {
        return grant(type.getModule(), type.getPackageName(), to, true);
    }

    /** Exports package {@code pkg} of {@code module} to {@code to}; false when it cannot be. */
    public static boolean exportTo(Module module, String pkg, Module to) {
        return grant(module, pkg, to, false);
    }

    private static boolean grant(Module module, String pkg, Module to, boolean open) {
        if (!module.isNamed() || (open ? module.isOpen(pkg, to) : module.isExported(pkg, to))) return true;
        Instrumentation inst = instrumentation;
        if (inst == null || !inst.isModifiableModule(module)) return false;
        Map<String, Set<Module>> grant = Map.of(pkg, Set.of(to));
        inst.redefineModule(module, Set.of(), open ? Map.of() : grant, open ? grant : Map.of(), Set.of(), Map.of());
        return true;
    }
}
