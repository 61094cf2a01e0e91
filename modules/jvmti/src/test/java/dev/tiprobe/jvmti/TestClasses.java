package dev.tiprobe.jvmti;

import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.lang.reflect.AccessFlag;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Classes made at run time for the tests: fresh names, so every load is a real first load. */
final class TestClasses {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private TestClasses() {}

    /** A fresh binary name in {@code pkg}, e.g. {@code dev.tiprobe.jvmti.gen.Made17}. */
    static String freshName(String pkg, String prefix) {
        return pkg + "." + prefix + SEQUENCE.incrementAndGet();
    }

    /** A public class with a constructor and {@code static int work(int)} returning its argument plus one. */
    static byte[] classFile(String binaryName) {
        ClassDesc self = ClassDesc.of(binaryName);
        return ClassFile.of().build(self, cb -> cb
                .withFlags(AccessFlag.PUBLIC)
                .withMethodBody(ConstantDescs.INIT_NAME, ConstantDescs.MTD_void, ClassFile.ACC_PUBLIC, code -> code
                        .aload(0)
                        .invokespecial(ConstantDescs.CD_Object, ConstantDescs.INIT_NAME, ConstantDescs.MTD_void)
                        .return_())
                .withMethodBody("work", MethodTypeDesc.of(ConstantDescs.CD_int, ConstantDescs.CD_int),
                        ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC, code -> code
                                .iload(0)
                                .iconst_1()
                                .iadd()
                                .ireturn()));
    }

    /** Calls {@code static int work(int)}, which links and initializes the class; checks it answers. */
    static void use(Class<?> c) {
        try {
            Object answer = c.getMethod("work", int.class).invoke(null, 41);
            if (!Integer.valueOf(42).equals(answer)) throw new AssertionError(c + ".work(41) = " + answer);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** A loader that defines the classes it is given and nothing else; drop it to unload them. */
    static final class ThrowawayLoader extends ClassLoader {
        ThrowawayLoader() {
            super("tiprobe-test-throwaway", TestClasses.class.getClassLoader());
        }

        /**
         * Defines the class and calls its {@code work} method. HotSpot prepares (links) a class
         * lazily, at first use, and ClassPrepare fires then: defining alone gives only ClassLoad.
         */
        Class<?> define(String binaryName) {
            Class<?> c = defineOnly(binaryName);
            use(c);
            return c;
        }

        /** Defines the class without using it: it has ClassLoad behind it, not ClassPrepare. */
        Class<?> defineOnly(String binaryName) {
            byte[] bytes = classFile(binaryName);
            return defineClass(binaryName, bytes, 0, bytes.length);
        }

        List<Class<?>> defineMany(String pkg, int count) {
            List<Class<?>> classes = new ArrayList<>();
            for (int i = 0; i < count; i++) classes.add(define(freshName(pkg, "Throwaway")));
            return classes;
        }
    }
}
