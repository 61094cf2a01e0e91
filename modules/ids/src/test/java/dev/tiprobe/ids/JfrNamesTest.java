package dev.tiprobe.ids;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** JFR's class names, as JDK 25's events write them, turned into the names the registry, the views and JFR recordings' reports use. */
class JfrNamesTest {
    @Test
    void aHiddenClassLosesItsAddressAsTheRegistryDropsIt() {
        assertEquals("Exp$$Lambda/hidden", JfrNames.binaryName("Exp$$Lambda.0x0000000015180450"));
        assertEquals("java.lang.invoke.LambdaForm$DMH/hidden", JfrNames.binaryName("java.lang.invoke.LambdaForm$DMH.0x000000001506c000"));
        assertEquals("com.foo.Bar$Inner", JfrNames.binaryName("com.foo.Bar$Inner"));
        assertEquals("com.foo.x0a", JfrNames.binaryName("com.foo.x0a"));
    }

    @Test
    void aMonitorsClassIsNamedAsTheAllocationViewNamesClasses() {
        assertEquals("java.lang.Object[]", JfrNames.typeName("[Ljava.lang.Object;"));
        assertEquals("byte[][]", JfrNames.typeName("[[B"));
        assertEquals("long[]", JfrNames.typeName("[J"));
        assertEquals("example.Gen/hidden[]", JfrNames.typeName("[Lexample.Gen.0x00007f0011;"));
        assertEquals("example.known.AllocAndLocks$Ledger", JfrNames.typeName("example.known.AllocAndLocks$Ledger"));
    }
}
