package dev.tiprobe.agent.locks;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** JFR's class names, as JDK 25's monitor events write them, turned into the names the registry and the lock view use. */
class JfrWaitsTest {
    @Test
    void aHiddenClassLosesItsAddressAsTheRegistryDropsIt() {
        assertEquals("Exp$$Lambda/hidden", JfrWaits.binaryName("Exp$$Lambda.0x0000000015180450"));
        assertEquals("java.lang.invoke.LambdaForm$DMH/hidden", JfrWaits.binaryName("java.lang.invoke.LambdaForm$DMH.0x000000001506c000"));
        assertEquals("com.foo.Bar$Inner", JfrWaits.binaryName("com.foo.Bar$Inner"));
        assertEquals("com.foo.x0a", JfrWaits.binaryName("com.foo.x0a"));
    }

    @Test
    void aMonitorsClassIsNamedAsTheAllocationViewNamesClasses() {
        assertEquals("java.lang.Object[]", JfrWaits.typeName("[Ljava.lang.Object;"));
        assertEquals("byte[][]", JfrWaits.typeName("[[B"));
        assertEquals("long[]", JfrWaits.typeName("[J"));
        assertEquals("example.Gen/hidden[]", JfrWaits.typeName("[Lexample.Gen.0x00007f0011;"));
        assertEquals("example.known.AllocAndLocks$Ledger", JfrWaits.typeName("example.known.AllocAndLocks$Ledger"));
    }
}
