package dev.tiprobe.ids;

import java.util.Objects;

/**
 * The JVM's counterpart of a CLR mdTypeDef: what identifies a class independently of the run.
 * Stable while the class file and the way it is loaded do not change.
 *
 * <p>Its strings are interned ({@link String#intern()}: the JVM's table, which lets a string go
 * once nothing else holds it): the same class met by sampling and by tracing, a class loaded
 * again under its name, and every class of one jar share one copy of each.
 *
 * @param binaryName    {@code com.foo.Outer$Inner}; a hidden class keeps its {@code /0x..} suffix
 * @param loader        the defining loader
 * @param module        the module name, or null for an unnamed module
 * @param moduleVersion the module version, or null
 * @param codeSource    the jar or directory the class came from, or null when unknown
 */
public record ClassToken(String binaryName, LoaderRef loader, String module, String moduleVersion,
                         String codeSource) {
    public ClassToken {
        Objects.requireNonNull(binaryName, "binaryName");
        Objects.requireNonNull(loader, "loader");
        if (binaryName.isEmpty()) throw new IllegalArgumentException("empty binary name");
        binaryName = binaryName.intern();
        module = module == null ? null : module.intern();
        moduleVersion = moduleVersion == null ? null : moduleVersion.intern();
        codeSource = codeSource == null ? null : codeSource.intern();
    }

    /**
     * The deterministic text form:
     * {@code com.foo.Bar loader=app module=com.foo@1.2 source=file:/app.jar}, with {@code -} for
     * what is unknown.
     */
    public String text() {
        return binaryName + " loader=" + loader.text()
                + " module=" + (module == null ? "-" : module + (moduleVersion == null ? "" : "@" + moduleVersion))
                + " source=" + (codeSource == null ? "-" : codeSource);
    }

    /**
     * The name a token uses for a class: the binary name, except that a hidden class's address
     * suffix ({@code Foo$$Lambda/0x0000023f0100a000}) becomes {@code /hidden}. The suffix changes with
     * every definition; without it, the same lambda or proxy gets the same token in every process
     * and every time it is defined again, which keeps the token table bounded under churn. Two live
     * hidden classes from one template then share a token, and reverse lookups return both.
     */
    public static String stableName(String binaryName) {
        int slash = binaryName.lastIndexOf('/');
        return slash < 0 ? binaryName : binaryName.substring(0, slash) + HIDDEN;
    }

    /** What a hidden class's name ends with in place of its address: {@link #stableName}. */
    public static final String HIDDEN = "/hidden";

    /** The package, {@code com.foo}, or the empty string. */
    public String packageName() {
        int dot = binaryName.lastIndexOf('.');
        return dot < 0 ? "" : binaryName.substring(0, dot);
    }

    @Override
    public String toString() {
        return text();
    }
}
