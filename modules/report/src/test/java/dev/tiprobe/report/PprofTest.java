package dev.tiprobe.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Functions are named as folded stacks name frames (async-profiler's spelling); the jar or module they came from is their mapping. */
class PprofTest {
    @Test
    void aMethodsJarOrModuleIsItsMappingAndTheRestItsName() {
        assertEquals("jetty-io-12.0.16.jar", Pprof.mappingOf("jetty-io-12.0.16.jar!org.eclipse.jetty.io.ManagedSelector.submit(boolean) : void"));
        assertEquals("java.base", Pprof.mappingOf("java.base/java.util.HashMap.put(K, V) : V"));
        assertEquals("[classes]", Pprof.mappingOf("example.known.Known.spin(long) : long"), "a class from a directory");
        assertEquals("[classes]", Pprof.mappingOf("Main$$Lambda/hidden.run() : void"), "a hidden class from a directory");
        assertEquals("[classes]", Pprof.mappingOf("demo.Shop.price(java.util.Map<a/b, c!d> m) : long"), "'/' and '!' in parameters are no prefix");
        assertEquals("[classes]", Pprof.mappingOf("[truncated]"));
    }
}
