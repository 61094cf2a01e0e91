package dev.tiprobe.agent;

import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.AccessFlag;

/** Classes made at run time, defined by loaders the tests throw away, or as hidden classes. */
final class Generated {
    private Generated() {}

    /** A class with {@code static int work(int)} (returns its argument plus one) and {@code int twice(int)}. */
    static byte[] classFile(String binaryName) {
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

    /** Calls {@code work(41)}: links and initializes the class, so ClassPrepare has fired. */
    static Class<?> use(Class<?> c) {
        try {
            Object answer = c.getMethod("work", int.class).invoke(null, 41);
            if (!Integer.valueOf(42).equals(answer)) throw new AssertionError(c + ".work(41) = " + answer);
            return c;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** A hidden class in this package (unloadable: not STRONG). */
    static Class<?> hidden(String simpleName) {
        try {
            return use(MethodHandles.lookup().defineHiddenClass(classFile("dev.tiprobe.agent." + simpleName), true)
                    .lookupClass());
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    /** Defines what it is told to, and nothing else; drop it to unload its classes. */
    static final class Loader extends ClassLoader {
        Loader() {
            super("tiprobe-agent-test", Generated.class.getClassLoader());
        }

        Class<?> define(String binaryName) {
            byte[] bytes = classFile(binaryName);
            return use(defineClass(binaryName, bytes, 0, bytes.length));
        }
    }
}
