package dev.tiprobe.filter;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MethodFilterTest {
    static boolean chooses(String filter, String className, String method, String descriptor) {
        return MethodFilter.parse(filter).matches(className, Set.of(), method, descriptor, Set.of());
    }

    @Test
    void packagePatternsTakeOneLevelOrAll() {
        assertTrue(chooses("com.foo.*", "com.foo.Bar", "x", "()V"));
        assertTrue(chooses("com.foo.*", "com.foo.Bar$Inner", "x", "()V"));
        assertFalse(chooses("com.foo.*", "com.foo.sub.Bar", "x", "()V"));
        assertTrue(chooses("com.foo.**", "com.foo.sub.deep.Bar", "x", "()V"));
        assertFalse(chooses("com.foo.**", "com.foobar.Bar", "x", "()V"));
    }

    @Test
    void methodPatternsNamesDescriptorsAndSimpleClassNames() {
        assertTrue(chooses("com.foo.Bar::get*", "com.foo.Bar", "getName", "()Ljava/lang/String;"));
        assertFalse(chooses("com.foo.Bar::get*", "com.foo.Bar", "setName", "(Ljava/lang/String;)V"));
        assertTrue(chooses("*Controller::handle", "org.web.UserController", "handle", "()V"));
        assertFalse(chooses("*Controller::handle", "org.web.UserService", "handle", "()V"));
        assertTrue(chooses("com.foo.Bar::<init>", "com.foo.Bar", "<init>", "(I)V"));
        assertFalse(chooses("com.foo.Bar::<init>", "com.foo.Bar", "<clinit>", "()V"));
        assertTrue(chooses("com.foo.Bar::sum(II)I", "com.foo.Bar", "sum", "(II)I"));
        assertFalse(chooses("com.foo.Bar::sum(II)I", "com.foo.Bar", "sum", "(JJ)J"));
    }

    /** An overload with object parameters is named by descriptor, its ';' kept out of the list of patterns, or by Java types. */
    @Test
    void overloadsAreNamedByDescriptorOrByJavaParameterTypes() {
        String f = "(Ljava/lang/String;)I";
        String g = "(Ljava/lang/String;I[Ljava/util/Map$Entry;)Ljava/util/List;";
        assertTrue(chooses("T::f(Ljava/lang/String;)I", "T", "f", f));
        assertFalse(chooses("T::f(Ljava/lang/String;)I", "T", "f", "(I)I"));
        assertTrue(chooses("T::f(Ljava/lang/String;)I;U::g", "U", "g", "()V"), "the next pattern after a descriptor");
        assertTrue(chooses("U::x;T::g(Ljava/lang/String;I[Ljava/util/Map$Entry;)Ljava/util/List;;V::y", "T", "g", g),
                "a return type's ';' belongs to the descriptor");
        assertTrue(chooses("U::x;T::g(Ljava/lang/String;I[Ljava/util/Map$Entry;)Ljava/util/List;;V::y", "V", "y", "()V"));
        assertTrue(chooses("T::f(String)", "T", "f", f));
        assertTrue(chooses("T::f(java.lang.String)", "T", "f", f));
        assertFalse(chooses("T::f(java.util.String)", "T", "f", f), "a qualified name is matched whole");
        assertFalse(chooses("T::f(String)", "T", "f", "(Ljava/lang/String;I)I"));
        assertTrue(chooses("T::g(String, int, Map.Entry[])", "T", "g", g));
        assertTrue(chooses("T::g(String,int,java.util.Map$Entry...); U::h", "T", "g", g));
        assertTrue(chooses("T::g(String,int,Entry[]); U::h", "U", "h", "()V"));
        assertTrue(chooses("T::f()", "T", "f", "()Ljava/lang/String;"), "() is the overload without parameters, any return");
        assertFalse(chooses("T::f()", "T", "f", "(I)V"));
        assertEquals(13, position("T::f(String, , int)"));
        assertEquals(7, position("T::f(I)"), "a descriptor without its return type, not a class named I");
        assertEquals(8, position("T::f(II)"));
        assertEquals(8, position("T::f(Str-ing)"));
    }

    @Test
    void excludesWinAndAnnotationsMatchClassOrMethod() {
        assertFalse(chooses("com.foo.**;!com.foo.internal.**", "com.foo.internal.Secret", "x", "()V"));
        assertTrue(chooses("com.foo.**;!com.foo.internal.**", "com.foo.Open", "x", "()V"));
        assertFalse(chooses("com.foo.**; !com.foo.Bar::get*", "com.foo.Bar", "getX", "()I"));
        MethodFilter timed = MethodFilter.parse("@org.example.Timed");
        assertTrue(timed.matches("a.B", Set.of(), "m", "()V", Set.of("Lorg/example/Timed;")));
        assertTrue(timed.matches("a.B", Set.of("Lorg/example/Timed;"), "m", "()V", Set.of()));
        assertFalse(timed.matches("a.B", Set.of(), "m", "()V", Set.of("Lorg/example/Other;")));
        assertTrue(timed.mayMatchClass("any.Class"), "annotations are only known from the class file");
    }

    @Test
    void malformedPatternsNameThePosition() {
        assertEquals(7, position("com.foo.;x.Y"));
        assertEquals(10, position("com.foo.*;;x.Y"));
        assertEquals(13, position("com.foo.Bar::"));
        assertEquals(18, position("com.foo.Bar::get(I"));
        assertEquals(17, position("com.foo.Bar::get(Q)V"));
        assertEquals(7, position("com.foo Bar"));
        assertEquals(0, position("!com.foo.**"));
        assertEquals(0, position(""));
        var e = assertThrows(MethodFilter.FilterSyntaxException.class, () -> MethodFilter.parse("a.b::c.d"));
        assertEquals("'.' in a method name at position 6 of 'a.b::c.d'", e.getMessage());
    }

    static int position(String filter) {
        return assertThrows(MethodFilter.FilterSyntaxException.class, () -> MethodFilter.parse(filter)).position();
    }
    /**
     * java.lang's classes are traced where a pattern names them whole, never through a wildcard;
     * the classes and Thread's methods the probe runs on never, and a filter naming them is refused
     * with the reason.
     */
    @Test
    void javaLangIsTracedOnlyWhereNamedAndNeverWhereTheProbeRuns() {
        assertNull(Untraceable.whyNotClass("java/lang/Thread", MethodFilter.parse("java.lang.Thread::start;com.foo.**")));
        assertNotNull(Untraceable.whyNotClass("java/lang/ProcessBuilder", MethodFilter.parse("java.lang.**")));
        assertNotNull(Untraceable.whyNotClass("java/lang/ProcessBuilder", MethodFilter.parse("**")));
        assertNull(Untraceable.whyNotClass("java/util/HashMap", MethodFilter.parse("java.**")));
        assertNotNull(Untraceable.whyNotClass("jdk/internal/misc/Unsafe", MethodFilter.parse("jdk.internal.misc.Unsafe::*")));
        assertNotNull(Untraceable.whyNotClass("java/lang/ThreadLocal$ThreadLocalMap", MethodFilter.parse("java.lang.ThreadLocal$ThreadLocalMap")));
        assertEquals("the probe calls it to find the calling thread", Untraceable.whyNotMethod("java/lang/Thread", "threadId"));
        assertNull(Untraceable.whyNotMethod("java/lang/Thread", "start"));
        assertEquals("java.lang.Object cannot be traced: the probe itself runs on it",
                Untraceable.refused(MethodFilter.parse("java.lang.Object::hashCode")));
        assertEquals("java.lang.Thread::getName cannot be traced: the probe calls it to find the calling thread",
                Untraceable.refused(MethodFilter.parse("com.foo.*;java.lang.Thread::getName")));
        assertNull(Untraceable.refused(MethodFilter.parse("java.lang.Thread::start;java.**;*Service")));
        assertNotNull(Untraceable.whyNotClass("java/lang/foreign/Arena", MethodFilter.parse("java.lang.foreign.Arena::ofConfined")));
        assertNotNull(Untraceable.whyNotClass("java/lang/runtime/SwitchBootstraps", MethodFilter.parse("java.**")));
        assertNull(Untraceable.whyNotClass("java/lang/runtime/SwitchBootstraps", MethodFilter.parse("java.lang.runtime.SwitchBootstraps")));
    }

    /** A java.lang class named whole opens only the methods its own patterns choose, not what a wildcard beside them would. */
    @Test
    void aClassNamedWholeOpensOnlyTheMethodsItsPatternsChoose() {
        MethodFilter f = MethodFilter.parse("java.lang.Thread::start;java.**;!java.lang.Thread::start(J)V");
        assertTrue(f.matchesWhereNamed("java.lang.Thread", "start", "()V"));
        assertFalse(f.matchesWhereNamed("java.lang.Thread", "interrupt", "()V"), "java.** does not open Thread's other methods");
        assertFalse(f.matchesWhereNamed("java.lang.Thread", "start", "(J)V"), "excludes still apply");
        assertFalse(f.matchesWhereNamed("java.lang.Runtime", "gc", "()V"));
    }
}
