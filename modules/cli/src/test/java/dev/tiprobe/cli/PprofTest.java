package dev.tiprobe.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Functions are named as tiprobe's reports name them; the jar or module they came from is their mapping. */
class PprofTest {
    @Test
    void aMethodsJarOrModuleIsItsMappingAndTheRestItsName() {
        assertEquals("jetty-io-12.0.16.jar", Pprof.mappingOf("jetty-io-12.0.16.jar!org.eclipse.jetty.io.ManagedSelector.submit(boolean) : void"));
        assertEquals("org.eclipse.jetty.io.ManagedSelector.submit(boolean) : void",
                Pprof.withoutMapping("jetty-io-12.0.16.jar!org.eclipse.jetty.io.ManagedSelector.submit(boolean) : void"));
        assertEquals("java.base", Pprof.mappingOf("java.base/java.util.HashMap.put(K, V) : V"));
        assertEquals("java.util.HashMap.put(K, V) : V", Pprof.withoutMapping("java.base/java.util.HashMap.put(K, V) : V"));
        assertEquals("[classes]", Pprof.mappingOf("example.known.Known.spin(long) : long"), "a class from a directory");
        assertEquals("example.known.Known.spin(long) : long", Pprof.withoutMapping("example.known.Known.spin(long) : long"));
        assertEquals("[classes]", Pprof.mappingOf("demo.Shop.price(java.util.Map<a/b, c!d> m) : long"), "'/' and '!' in parameters are no prefix");
        assertEquals("[classes]", Pprof.mappingOf("[truncated]"));
    }
}
