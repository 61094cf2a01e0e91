package dev.tiprobe.ids;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class HumanNamesTest {
    /** Compiled by the build with debug information, so its LocalVariableTable has the names. */
    static final class Orders {
        List<BigDecimal> total(String customer, int qty) {
            return List.of(BigDecimal.valueOf(qty), new BigDecimal(customer.length()));
        }

        static String join(String separator, Object... parts) {
            return separator + parts.length;
        }
    }

    static final ClassToken ORDERS = new ClassToken("com.foo.Orders", LoaderRef.APP, null, null, "file:/srv/app.jar");

    @Test
    void theIssuesExample() {
        MethodToken total = new MethodToken(ORDERS, "total", "(Ljava/lang/String;I)Ljava/util/List;",
                "(Ljava/lang/String;I)Ljava/util/List<Ljava/math/BigDecimal;>;", 1, new int[0]);
        assertEquals("app.jar!com.foo.Orders.total(java.lang.String customer, int qty) : java.util.List<java.math.BigDecimal>",
                HumanNames.method(total, List.of("customer", "qty")));
        assertEquals("app.jar!com.foo.Orders.total(java.lang.String, int) : java.util.List<java.math.BigDecimal>",
                HumanNames.method(total));
    }

    @Test
    void modulesNestedClassesArraysVarargsAndConstructors() {
        ClassToken entry = new ClassToken("java.util.Map$Entry", LoaderRef.BOOTSTRAP, "java.base", "25", null);
        assertEquals("java.base/java.util.Map$Entry", HumanNames.className(entry));
        MethodToken join = new MethodToken(ORDERS, "join", "(Ljava/lang/String;[Ljava/lang/Object;)Ljava/lang/String;",
                null, 0x0008 | 0x0080, new int[0]);
        assertEquals("app.jar!com.foo.Orders.join(java.lang.String, java.lang.Object...) : java.lang.String",
                HumanNames.method(join));
        MethodToken init = new MethodToken(ORDERS, "<init>", "([[I)V", null, 1, new int[0]);
        assertEquals("app.jar!com.foo.Orders.<init>(int[][])", HumanNames.method(init));
        ClassToken dir = new ClassToken("Main", LoaderRef.APP, null, null, "file:/home/me/classes/");
        assertEquals("Main", HumanNames.className(dir));
    }

    /** Frames line up with async-profiler's collapsed output (its default and {@code norm}) and with JFR's names. */
    @Test
    void framesAreSpelledAsAsyncProfilerAndJfrSpellThem() {
        String valueOf = "java.base/java.lang.String.valueOf(long) : java.lang.String";
        assertEquals("java/lang/String.valueOf", HumanNames.frame(valueOf, HumanNames.FrameStyle.SLASH));
        assertEquals("java.lang.String.valueOf", HumanNames.frame(valueOf, HumanNames.FrameStyle.DOT));
        assertEquals("java.base/java.lang.String.valueOf", HumanNames.frame(valueOf, HumanNames.FrameStyle.FULL));
        assertEquals("com/foo/Outer$Inner.work", HumanNames.frame("app.jar!com.foo.Outer$Inner.work(long) : long", HumanNames.FrameStyle.SLASH));
        assertEquals("Spell$$Lambda.applyAsLong", HumanNames.frame("Spell$$Lambda/hidden.applyAsLong(long) : long", HumanNames.FrameStyle.SLASH));
        assertEquals("java/lang/invoke/LambdaForm$DMH.invokeStatic",
                HumanNames.frame("java.base/java.lang.invoke.LambdaForm$DMH/hidden.invokeStatic(java.lang.Object) : void", HumanNames.FrameStyle.SLASH));
        assertEquals("Main.<init>", HumanNames.frame("Main.<init>()", HumanNames.FrameStyle.SLASH));
        assertEquals("com/foo/Bar.baz:42", HumanNames.frame("com.foo.Bar.baz:42(int) : int", HumanNames.FrameStyle.SLASH));
        assertEquals("java.lang.String", HumanNames.frame("java.lang.String", HumanNames.FrameStyle.SLASH), "an allocated class");
        assertEquals("[truncated]", HumanNames.frame("[truncated]", HumanNames.FrameStyle.SLASH));
        assertEquals("libc.so.6.memmove", HumanNames.frame("libc.so.6.memmove", HumanNames.FrameStyle.SLASH), "a native symbol");

        assertEquals("java.base", HumanNames.originOf(valueOf));
        assertEquals("app.jar", HumanNames.originOf("app.jar!com.foo.Outer$Inner.work(long) : long"));
        assertEquals(null, HumanNames.originOf("Spell$$Lambda/hidden.applyAsLong(long) : long"), "a hidden class from a directory");
        assertEquals(null, HumanNames.originOf("demo.Shop.price(java.util.Map<a/b, c!d> m) : long"), "'/' and '!' in parameters are no origin");
        assertEquals(null, HumanNames.originOf("[truncated]"));
    }

    @Test
    void parameterNamesComeFromTheClassFile() throws IOException {
        byte[] bytes;
        try (InputStream in = Orders.class.getResourceAsStream("HumanNamesTest$Orders.class")) {
            bytes = in.readAllBytes();
        }
        Map<String, List<String>> names = ParameterNames.of(bytes);
        assertEquals(List.of("customer", "qty"), names.get("total(Ljava/lang/String;I)Ljava/util/List;"));
        assertEquals(List.of("separator", "parts"), names.get("join(Ljava/lang/String;[Ljava/lang/Object;)Ljava/lang/String;"));
    }

    @Test
    void tokenTextIsDeterministicAndLineTablesAnswerByBci() {
        MethodToken m = new MethodToken(ORDERS, "total", "(I)V", null, 1, new int[] {8, 12, 0, 10, 4, 11});
        assertEquals("com.foo.Orders loader=app module=- source=file:/srv/app.jar ::total(I)V", m.text());
        assertEquals(10, m.lineAt(0));
        assertEquals(11, m.lineAt(5));
        assertEquals(12, m.lineAt(100));
        assertEquals(10, m.firstLine());
        assertEquals("com.foo.PluginLoader[plugins]#2", IdMapTest.PLUGIN2.text());
    }

    /** Line tables are held as a class file holds them, two bytes a value: the top of that range reads back, beyond it is refused. */
    @Test
    void lineTablesSpanAClassFilesWholeRange() {
        MethodToken big = new MethodToken(ORDERS, "huge", "()V", null, 1, new int[] {65_000, 65_535, 0, 1, 40_000, 30_000});
        assertEquals(1, big.lineAt(39_999));
        assertEquals(30_000, big.lineAt(40_000), "a bci past 32767 sorts after the smaller ones");
        assertEquals(65_535, big.lineAt(65_535));
        assertEquals(big, new MethodToken(ORDERS, "huge", "()V", null, 1, new int[] {0, 1, 40_000, 30_000, 65_000, 65_535}));
        assertThrows(IllegalArgumentException.class, () -> new MethodToken(ORDERS, "f", "()V", null, 1, new int[] {0, 70_000}));
        assertThrows(IllegalArgumentException.class, () -> new MethodToken(ORDERS, "f", "()V", null, 1, new int[] {-1, 3}));
    }
}
