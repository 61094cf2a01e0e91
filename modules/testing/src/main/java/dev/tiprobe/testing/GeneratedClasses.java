package dev.tiprobe.testing;

import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.AccessFlag;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Classes made at run time for the tests, defined by loaders the tests throw away or as hidden
 * classes: fresh names make every load a real first load, and dropping the loader unloads them.
 */
public final class GeneratedClasses {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private GeneratedClasses() {}

    /** A fresh binary name in {@code pkg}, e.g. {@code gen.Made17}. */
    public static String freshName(String pkg, String prefix) {
        return pkg + "." + prefix + SEQUENCE.incrementAndGet();
    }

    /**
     * A public class with a constructor, {@code static int work(int)} (its argument plus one) and
     * {@code int twice(int)}.
     */
    public static byte[] classFile(String binaryName) {
        return ClassFile.of().build(ClassDesc.of(binaryName), cb -> cb
                .withFlags(AccessFlag.PUBLIC)
                .withMethodBody(ConstantDescs.INIT_NAME, ConstantDescs.MTD_void, ClassFile.ACC_PUBLIC, code -> code
                        .aload(0).invokespecial(ConstantDescs.CD_Object, ConstantDescs.INIT_NAME, ConstantDescs.MTD_void)
                        .return_())
                .withMethodBody("work", MethodTypeDesc.of(ConstantDescs.CD_int, ConstantDescs.CD_int),
                        ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC, code -> code.iload(0).iconst_1().iadd().ireturn())
                .withMethodBody("twice", MethodTypeDesc.of(ConstantDescs.CD_int, ConstantDescs.CD_int),
                        ClassFile.ACC_PUBLIC, code -> code.iload(1).iconst_2().imul().ireturn()));
    }

    /**
     * Calls {@code work(41)} and checks the answer: that links and initializes the class. HotSpot
     * prepares a class lazily, at first use, and ClassPrepare fires then, not at definition.
     */
    public static Class<?> use(Class<?> c) {
        try {
            Object answer = c.getMethod("work", int.class).invoke(null, 41);
            if (!Integer.valueOf(42).equals(answer)) throw new AssertionError(c + ".work(41) = " + answer);
            return c;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** A used hidden class named {@code simpleName} in the package of {@code lookup} (unloadable: not STRONG). */
    public static Class<?> hidden(MethodHandles.Lookup lookup, String simpleName) {
        try {
            String name = lookup.lookupClass().getPackageName() + "." + simpleName;
            return use(lookup.defineHiddenClass(classFile(name), true).lookupClass());
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    /** A loader that defines the classes it is given and nothing else; drop it to unload them. */
    public static final class Loader extends ClassLoader {
        public Loader() {
            super("tiprobe-test", GeneratedClasses.class.getClassLoader());
        }

        /** Defines the class and uses it, so that it is prepared. */
        public Class<?> define(String binaryName) {
            return use(defineOnly(binaryName));
        }

        /** Defines the class without using it: it has ClassLoad behind it, not ClassPrepare. */
        public Class<?> defineOnly(String binaryName) {
            byte[] bytes = classFile(binaryName);
            return defineClass(binaryName, bytes, 0, bytes.length);
        }

        /** {@code count} classes with fresh names in {@code pkg}, each defined and used. */
        public List<Class<?>> defineMany(String pkg, int count) {
            List<Class<?>> classes = new ArrayList<>();
            for (int i = 0; i < count; i++) classes.add(define(freshName(pkg, "Throwaway")));
            return classes;
        }
    }
}
