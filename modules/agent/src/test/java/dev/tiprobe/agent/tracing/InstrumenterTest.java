package dev.tiprobe.agent.tracing;

import dev.tiprobe.filter.MethodFilter;
import dev.tiprobe.options.AgentOptions.TraceMode;
import dev.tiprobe.testing.GeneratedClasses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.lang.reflect.AccessFlag;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InstrumenterTest {
    /**
     * While a session started in premain hands over from java.lang.instrument to its JVMTI hook,
     * both see each class that loads: the second must not add a second probe (doubled counts).
     */
    @Test
    void aClassThatAlreadyCallsTheProbeIsLeftAlone() {
        for (TraceMode mode : TraceMode.values()) {
            Instrumenter instrumenter = new Instrumenter(MethodFilter.parse("gen.**"), mode,
                    (name, loader, source, file) -> method -> 0, Instrumenter.LoadedClasses.NONE);
            byte[] original = GeneratedClasses.classFile("gen.Twice");
            assertFalse(Instrumenter.callsTheProbe(ClassFile.of().parse(original)));
            Instrumenter.Result first = instrumenter.transform(null, null, original, false);
            assertNotNull(first.bytes(), mode + ": the original is instrumented");
            assertEquals(3, first.instrumented(), mode + ": <init>, work and twice");
            assertTrue(Instrumenter.callsTheProbe(ClassFile.of().parse(first.bytes())));
            Instrumenter.Result second = instrumenter.transform(null, null, first.bytes(), false);
            assertNull(second.bytes(), mode + ": instrumented once, not twice");
            assertEquals(0, second.instrumented());
        }
    }

    /**
     * A class file older than Java 6 (Byte Buddy's default where it does not know the running JDK)
     * has no stack maps, and tiprobe cannot check its changes: as it loads, it is left unchanged
     * with that reason; retransformed, where the JVM verifies the result itself, it is changed.
     */
    @Test
    void aClassFileOlderThanJava6IsChangedOnlyWhereTheJvmChecksTheChange() {
        byte[] java5 = ClassFile.of(ClassFile.StackMapsOption.DROP_STACK_MAPS).transformClass(
                ClassFile.of().parse(GeneratedClasses.classFile("gen.Old")),
                (builder, element) -> builder.with(element instanceof java.lang.classfile.ClassFileVersion
                        ? java.lang.classfile.ClassFileVersion.of(49, 0) : element));
        assertEquals(49, ClassFile.of().parse(java5).majorVersion());
        Instrumenter instrumenter = new Instrumenter(MethodFilter.parse("gen.**"), TraceMode.TIME,
                (name, loader, source, file) -> method -> 0, Instrumenter.LoadedClasses.NONE);
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> instrumenter.transform(null, null, java5, false));
        assertTrue(refused.getMessage().startsWith("its class file is version 49 (Java 5), older than Java 6"), refused.getMessage());
        assertNotNull(instrumenter.transform(null, null, java5, true).bytes(), "retransformed: the JVM checks the change");
    }

    /**
     * A class made in memory (its code source a local path that does not exist, as Groovy's
     * {@code file:/groovy/script}) has nestmates made with it: asking the loader for their class
     * files finds nothing, and each of the JDK's loaders up the chain keeps the name as a miss, a
     * name per script under script churn. Other classes' files are still asked for, and a class
     * from a directory, or of no code source (a loader may define what it reads without one),
     * still has its nestmates asked for.
     */
    @Test
    void theNestmatesOfAClassMadeInMemoryAreNotAskedOfTheLoader(@TempDir Path dir) {
        ClassDesc inner = ClassDesc.of("gen.Host$Inner"), other = ClassDesc.of("gen.Other"), another = ClassDesc.of("gen.Another");
        // Two methods, each joining two types: the stack maps need their hierarchy.
        byte[] host = ClassFile.of(ClassFile.StackMapsOption.DROP_STACK_MAPS).build(ClassDesc.of("gen.Host"), cb -> cb
                .withFlags(AccessFlag.PUBLIC)
                .withMethodBody("others", PICK, ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC, code -> pick(code, other, another))
                .withMethodBody("nestmate", PICK, ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC, code -> pick(code, inner, other)));
        List<String> asked = new CopyOnWriteArrayList<>();
        ClassLoader files = new ClassLoader("files", null) {
            @Override
            public InputStream getResourceAsStream(String name) {
                asked.add(name);
                String binaryName = name.substring(0, name.length() - ".class".length()).replace('/', '.');
                return new ByteArrayInputStream(ClassFile.of().build(ClassDesc.of(binaryName), cb -> {}));
            }
        };
        Instrumenter instrumenter = new Instrumenter(MethodFilter.parse("gen.**"), TraceMode.COUNT,
                (name, loader, source, classFile) -> method -> 0, Instrumenter.LoadedClasses.NONE);

        for (String madeInMemory : new String[] {"file:/groovy/script", dir.resolve("gone").toUri().toString()}) {
            asked.clear();
            IllegalArgumentException unresolved = assertThrows(IllegalArgumentException.class,
                    () -> instrumenter.transform(files, madeInMemory, host, true), madeInMemory + ": the nestmate is unknown");
            assertTrue(unresolved.getMessage().startsWith("Could not resolve class Host$Inner"), unresolved.getMessage());
            assertTrue(asked.containsAll(List.of("gen/Other.class", "gen/Another.class")), madeInMemory + ": other classes are asked for: " + asked);
            assertFalse(asked.contains("gen/Host$Inner.class"), madeInMemory + ": not its nestmate: " + asked);
        }
        for (String mayHaveFiles : new String[] {dir.toUri().toString(), null}) {
            asked.clear();
            assertNotNull(instrumenter.transform(files, mayHaveFiles, host, true).bytes());
            assertTrue(asked.contains("gen/Host$Inner.class"), mayHaveFiles + ": a class from a directory, or of no code source, "
                    + "has its nestmates asked for: " + asked);
        }
    }

    private static final MethodTypeDesc PICK = MethodTypeDesc.of(ConstantDescs.CD_Object, ConstantDescs.CD_boolean);

    /** {@code return flag ? new A() : new B();} */
    private static void pick(CodeBuilder code, ClassDesc a, ClassDesc b) {
        Label otherwise = code.newLabel(), join = code.newLabel();
        code.iload(0).ifeq(otherwise)
                .new_(a).dup().invokespecial(a, ConstantDescs.INIT_NAME, ConstantDescs.MTD_void)
                .goto_(join)
                .labelBinding(otherwise)
                .new_(b).dup().invokespecial(b, ConstantDescs.INIT_NAME, ConstantDescs.MTD_void)
                .labelBinding(join)
                .areturn();
    }

    @Test
    void aNestIsNamedByItsTopLevelClass() {
        assertEquals("a/B", NestFiles.topLevel("a/B$C$1"));
        assertEquals("a/B", NestFiles.topLevel("a/B"));
        assertEquals("Script7", NestFiles.topLevel("Script7$_run_closure1"));
        assertEquals("a$b/C", NestFiles.topLevel("a$b/C"), "a dollar in the package is not a nest's");
    }
}
