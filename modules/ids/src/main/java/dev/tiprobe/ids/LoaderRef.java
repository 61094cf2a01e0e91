package dev.tiprobe.ids;

import java.util.Objects;

/**
 * A class loader as a token sees it: its class, its name, and an ordinal that keeps apart live
 * loaders of the same class and name.
 *
 * <p>The ordinal is the smallest one no live loader of that class and name holds, so it depends
 * only on what is loaded, not on addresses: the same classes loaded the same way give the same
 * tokens in two processes, and a class reloaded by a fresh throwaway loader after the old one
 * died gets its old token back (as a CLR module keeps its metadata tokens), which keeps the
 * token table bounded under endless churn. The three built-in loaders have fixed names.
 *
 * @param loaderClass the loader's class name, or {@code bootstrap}, {@code platform}, {@code app}
 * @param name        {@code ClassLoader.getName()}, or null
 * @param ordinal     1 for the first live loader of this class and name, 0 for the built-in ones
 */
public record LoaderRef(String loaderClass, String name, int ordinal) {
    public static final LoaderRef BOOTSTRAP = new LoaderRef("bootstrap", null, 0);
    public static final LoaderRef PLATFORM = new LoaderRef("platform", null, 0);
    public static final LoaderRef APP = new LoaderRef("app", null, 0);

    public LoaderRef {
        Objects.requireNonNull(loaderClass, "loaderClass");
        if (ordinal < 0) throw new IllegalArgumentException("ordinal < 0: " + ordinal);
    }

    /** Whether this is one of the JDK's three built-in loaders. */
    public boolean builtIn() {
        return ordinal == 0;
    }

    /** {@code app}, or {@code com.foo.PluginLoader[plugins]#2}. */
    public String text() {
        if (builtIn()) return loaderClass;
        return loaderClass + (name == null ? "" : "[" + name + "]") + "#" + ordinal;
    }

    @Override
    public String toString() {
        return text();
    }
}
