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
     * A class file older than Java 6 (Byte Buddy's default where it does not know the running JDK,
     * and old libraries) has no stack maps, which the JDK's verifier needs to check tiprobe's
     * changes: changed as it loads, it is written as Java 7 with stack maps in every method, the
     * traced one's and the others', and it verifies and runs as before; retransformed, where the
     * JVM checks the change itself, it keeps its version. A method with subroutines, or a class
     * file older than Java 5, leaves its class unchanged as it loads, saying why.
     */
    @Test
    void aClassFileOlderThanJava6ChangedAsItLoadsGetsStackMapsAndRunsAsBefore() throws Exception {
        MethodTypeDesc intToInt = MethodTypeDesc.of(ConstantDescs.CD_int, ConstantDescs.CD_int);
        byte[] java5 = ClassFile.of(ClassFile.StackMapsOption.DROP_STACK_MAPS).build(ClassDesc.of("gen.Old"), cb -> cb
                .withVersion(49, 0)
                .withFlags(AccessFlag.PUBLIC, AccessFlag.SUPER)
                .withMethodBody("sum", intToInt, ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC, code -> {
                    Label loop = code.newLabel();
                    Label done = code.newLabel();
                    code.iconst_0().istore(1).labelBinding(loop).iload(0).ifeq(done)
                            .iload(1).iload(0).iadd().istore(1).iinc(0, -1).goto_(loop)
                            .labelBinding(done).iload(1).ireturn();
                })
                .withMethodBody("sign", intToInt, ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC, code -> {
                    Label negative = code.newLabel();
                    code.iload(0).iflt(negative).iconst_1().ireturn().labelBinding(negative).iconst_m1().ireturn();
                }));
        assertTrue(ClassFile.of().verify(java5).stream().anyMatch(e -> e.getMessage().contains("Inference")), "the JDK's verifier checks no Java 5 class");
        Instrumenter instrumenter = new Instrumenter(MethodFilter.parse("gen.Old::sum"), TraceMode.TIME,
                (name, loader, source, file) -> method -> 0, Instrumenter.LoadedClasses.NONE);

        byte[] loaded = instrumenter.transform(null, null, java5, false).bytes();
        assertNotNull(loaded, "changed as it loads");
        assertEquals(51, ClassFile.of().parse(loaded).majorVersion());
        assertEquals(List.of(), ClassFile.of().verify(loaded), "every method verifies, with its stack maps");
        Class<?> old = new ClassLoader(InstrumenterTest.class.getClassLoader()) {
            Class<?> define() {
                return defineClass("gen.Old", loaded, 0, loaded.length);
            }
        }.define();
        assertEquals(55, old.getMethod("sum", int.class).invoke(null, 10));
        assertEquals(-1, old.getMethod("sign", int.class).invoke(null, -4));

        byte[] retransformed = instrumenter.transform(null, null, java5, true).bytes();
        assertEquals(49, ClassFile.of().parse(retransformed).majorVersion(), "retransformed: the JVM checks the change, the version stays");

        byte[] subroutine = ClassFile.of(ClassFile.StackMapsOption.DROP_STACK_MAPS).build(ClassDesc.of("gen.Finally"), cb -> cb
                .withVersion(49, 0)
                .withFlags(AccessFlag.PUBLIC, AccessFlag.SUPER)
                .withMethodBody("f", intToInt, ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC, code -> {
                    Label sub = code.newLabel();
                    code.with(java.lang.classfile.instruction.DiscontinuedInstruction.JsrInstruction.of(sub)).iload(0).ireturn()
                            .labelBinding(sub).astore(1).with(java.lang.classfile.instruction.DiscontinuedInstruction.RetInstruction.of(1));
                }));
        Instrumenter finallyTracing = new Instrumenter(MethodFilter.parse("gen.Finally::f"), TraceMode.TIME,
                (name, loader, source, file) -> method -> 0, Instrumenter.LoadedClasses.NONE);
        assertTrue(assertThrows(IllegalStateException.class, () -> finallyTracing.transform(null, null, subroutine, false))
                .getMessage().startsWith("f has subroutines (jsr, from compilers before Java 6)"));
        byte[] java14 = ClassFile.of(ClassFile.StackMapsOption.DROP_STACK_MAPS).transformClass(ClassFile.of().parse(java5),
                (builder, element) -> builder.with(element instanceof java.lang.classfile.ClassFileVersion
                        ? java.lang.classfile.ClassFileVersion.of(48, 0) : element));
        assertTrue(assertThrows(IllegalStateException.class, () -> instrumenter.transform(null, null, java14, false))
                .getMessage().startsWith("its class file is version 48 (Java 1.4), older than Java 5"));
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
