package dev.tiprobe.ids;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DescriptorsTest {
    @Test
    void methodDescriptors() {
        Descriptors.MethodType t = Descriptors.methodDescriptor("(Ljava/lang/String;I[[JLcom/foo/Outer$Inner;)[Ljava/lang/Object;");
        assertEquals(List.of("java.lang.String", "int", "long[][]", "com.foo.Outer$Inner"), t.parameters());
        assertEquals("java.lang.Object[]", t.returnType());
        assertEquals("void", Descriptors.methodDescriptor("()V").returnType());
    }

    @Test
    void genericSignatures() {
        Descriptors.MethodType t = Descriptors.methodSignature(
                "<T::Ljava/lang/Comparable<-TT;>;>(Ljava/util/List<+TT;>;Ljava/util/Map<Ljava/lang/String;*>;)Ljava/util/List<TT;>;^Ljava/io/IOException;");
        assertEquals(List.of("T extends java.lang.Comparable<? super T>"), t.typeParameters());
        assertEquals(List.of("java.util.List<? extends T>", "java.util.Map<java.lang.String, ?>"), t.parameters());
        assertEquals("java.util.List<T>", t.returnType());
        assertEquals(List.of("java.io.IOException"), t.exceptions());
        assertEquals("com.foo.Outer<java.lang.String>.Inner<java.lang.Integer>",
                Descriptors.methodSignature("()Lcom/foo/Outer<Ljava/lang/String;>.Inner<Ljava/lang/Integer;>;").returnType());
    }

    @Test
    void internalNamesForTypeReferences() {
        assertEquals("com/foo/Bar", Descriptors.internalName("Lcom/foo/Bar;"));
        assertEquals("[Lcom/foo/Bar;", Descriptors.internalName("[Lcom/foo/Bar;"));
        assertEquals("I", Descriptors.internalName("I"));
    }

    @Test
    void malformedInputFailsWithThePosition() {
        var e = assertThrows(Descriptors.MalformedSignatureException.class,
                () -> Descriptors.methodDescriptor("(Ljava/lang/String"));
        assertTrue(e.getMessage().contains("at 18"), e.getMessage());
        assertThrows(Descriptors.MalformedSignatureException.class, () -> Descriptors.methodDescriptor("(Q)V"));
        assertThrows(Descriptors.MalformedSignatureException.class, () -> Descriptors.methodDescriptor("(I)VX"));
        assertThrows(Descriptors.MalformedSignatureException.class, () -> Descriptors.methodDescriptor(""));
        assertThrows(Descriptors.MalformedSignatureException.class, () -> Descriptors.methodDescriptor("(TT;)V"),
                "type variables only in signatures");
        assertThrows(Descriptors.MalformedSignatureException.class, () -> Descriptors.fieldType("L;"));
        assertThrows(Descriptors.MalformedSignatureException.class, () -> Descriptors.methodSignature("<>()V"));
        assertThrows(IllegalArgumentException.class,
                () -> new MethodToken(IdMapTest.cls("a.B", LoaderRef.APP), "m", "(I", null, 0, new int[0]));
    }
}
