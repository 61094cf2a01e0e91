package dev.tiprobe.agent.entry;

import java.lang.reflect.Method;

/**
 * Gives the agent's own module native access, as {@code --enable-native-access=<module>} would.
 * The public way, {@code ModuleLayer.Controller.enableNativeAccess}, is itself a restricted method,
 * so its caller needs native access first; this calls what that method calls,
 * {@code Module.implAddEnableNativeAccess}, with {@code java.lang} opened to this module alone
 * by {@link AgentEntry} (through {@code Instrumentation.redefineModule}, the agent's way to the
 * JDK's internals). Runs in the agent's layer, before any class of the agent makes an FFM call.
 */
public final class NativeAccess {
    private NativeAccess() {}

    /**
     * Gives this class's module native access.
     *
     * @throws ReflectiveOperationException when the JDK has no such method, or keeps it closed
     * @throws IllegalStateException when this class is in no named module (the class path)
     */
    public static void grantToOwnModule() throws ReflectiveOperationException {
        Module own = NativeAccess.class.getModule();
        if (!own.isNamed()) throw new IllegalStateException("not in a module of its own");
        if (own.isNativeAccessEnabled()) return;
        Method enable = Module.class.getDeclaredMethod("implAddEnableNativeAccess");
        enable.setAccessible(true);
        enable.invoke(own);
    }
}
