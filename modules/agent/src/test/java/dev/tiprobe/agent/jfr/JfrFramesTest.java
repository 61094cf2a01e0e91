package dev.tiprobe.agent.jfr;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** JFR's class names, as JDK 25's monitor events write them, turned into the names the registry and the lock view use. */
class JfrFramesTest {
    @Test
    void aHiddenClassLosesItsAddressAsTheRegistryDropsIt() {
        assertEquals("Exp$$Lambda/hidden", JfrFrames.binaryName("Exp$$Lambda.0x0000000015180450"));
        assertEquals("java.lang.invoke.LambdaForm$DMH/hidden", JfrFrames.binaryName("java.lang.invoke.LambdaForm$DMH.0x000000001506c000"));
        assertEquals("com.foo.Bar$Inner", JfrFrames.binaryName("com.foo.Bar$Inner"));
        assertEquals("com.foo.x0a", JfrFrames.binaryName("com.foo.x0a"));
    }

    @Test
    void aMonitorsClassIsNamedAsTheAllocationViewNamesClasses() {
        assertEquals("java.lang.Object[]", JfrFrames.typeName("[Ljava.lang.Object;"));
        assertEquals("byte[][]", JfrFrames.typeName("[[B"));
        assertEquals("long[]", JfrFrames.typeName("[J"));
        assertEquals("example.Gen/hidden[]", JfrFrames.typeName("[Lexample.Gen.0x00007f0011;"));
        assertEquals("example.known.AllocAndLocks$Ledger", JfrFrames.typeName("example.known.AllocAndLocks$Ledger"));
    }
}
