package dev.tiprobe.agent.entry;

import java.lang.instrument.Instrumentation;
import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * Where the JVM enters the agent jar (its {@code Premain-Class} and {@code Agent-Class}). The jar
 * sits on the class path, in the unnamed module that the program's own classes share, and the
 * JDK gives native access to such code only when the user starts the JVM with
 * {@code --enable-native-access=ALL-UNNAMED}; under {@code --illegal-native-access=deny}, the
 * coming default, its first restricted FFM call throws. The manifest's
 * {@code Enable-Native-Access} counts for {@code java -jar} only, not for agents.
 *
 * <p>So this class, which touches no other class of the agent, defines the same jar again as a
 * module of a layer of its own ({@value #MODULE}, its {@code Automatic-Module-Name}), once per
 * JVM, and gives that module alone native access ({@link NativeAccess}): the program's class path
 * keeps whatever the user chose for it. Then it calls {@value #MAIN} of that layer. Where any of
 * this fails (a JDK that changed what {@link NativeAccess} relies on), the agent runs from the
 * class path as before, and the user's flag decides.
 */
public final class AgentEntry {
    static final String MODULE = "dev.tiprobe.agent";
    static final String MAIN = "dev.tiprobe.agent.AgentMain";

    /** The layer's AgentMain, once made; every later load of the agent (start, stop, status) goes to the same one. */
    private static Class<?> main;

    private AgentEntry() {}

    /** {@code -javaagent}. */
    public static void premain(String args, Instrumentation inst) throws Throwable {
        enter("premain", args, inst);
    }

    /** Dynamic attach: every command of {@code tiprobe} that reaches the JVM through a load. */
    public static void agentmain(String args, Instrumentation inst) throws Throwable {
        enter("agentmain", args, inst);
    }

    private static void enter(String how, String args, Instrumentation inst) throws Throwable {
        Method entry = agentMain(inst).getMethod(how, String.class, Instrumentation.class);
        try {
            entry.invoke(null, args, inst);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static synchronized Class<?> agentMain(Instrumentation inst) throws ClassNotFoundException {
        if (main != null) return main;
        ClassLoader here = AgentEntry.class.getClassLoader();
        try {
            Path jar = Path.of(AgentEntry.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            ModuleLayer boot = ModuleLayer.boot();
            Configuration config = boot.configuration().resolve(ModuleFinder.of(jar), ModuleFinder.of(), Set.of(MODULE));
            ModuleLayer layer = boot.defineModulesWithOneLoader(config, here);
            Module agent = layer.findModule(MODULE).orElseThrow();
            // java.lang's internals opened to the agent's module alone, for NativeAccess to reach
            inst.redefineModule(Object.class.getModule(), Set.of(), Map.of(), Map.of("java.lang", Set.of(agent)), Set.of(), Map.of());
            ClassLoader loader = layer.findLoader(MODULE);
            loader.loadClass(NativeAccess.class.getName()).getMethod("grantToOwnModule").invoke(null);
            main = loader.loadClass(MAIN);
        } catch (Throwable t) {
            // the class path's agent: it has native access where the user gave the class path some
            main = here.loadClass(MAIN);
        }
        return main;
    }
}
