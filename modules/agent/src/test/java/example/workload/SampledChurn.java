package example.workload;

import java.lang.classfile.ClassFile;
import java.lang.classfile.Label;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.AccessFlag;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A target for the sampling churn test: for {@code args[0]} seconds, four threads define classes
 * {@code gen.ChurnN} in loaders they drop at once (and hidden classes), each with one busy method
 * {@code spinN}, and run it long enough to be sampled. Class N's method is always named with N,
 * so a frame that resolves to another class's method is visible in the recording.
 */
public final class SampledChurn {
    static final AtomicInteger NEXT = new AtomicInteger();

    private SampledChurn() {}

    public static void main(String[] args) throws Exception {
        long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int worker = t;
            threads.add(Thread.ofPlatform().name("churn-" + t).start(() -> {
                long sum = 0;
                while (System.nanoTime() < end) {
                    int n = NEXT.incrementAndGet();
                    try {
                        Class<?> c = worker == 3 && n % 2 == 0 ? hidden(n) : new Loader().define(n);
                        Method spin = c.getMethod("spin" + n, int.class);
                        for (int i = 0; i < 5; i++) sum += (int) spin.invoke(null, 200_000);
                    } catch (ReflectiveOperationException e) {
                        throw new AssertionError(e);
                    }
                    if (n % 200 == 0) System.gc();
                }
                if (sum == 42) System.out.println(sum);
            }));
        }
        for (Thread t : threads) t.join();
        System.out.println("classes " + NEXT.get());
    }

    /** {@code static int spinN(int n)}: a loop the JIT cannot drop (its result is returned). */
    static byte[] classFile(String binaryName, int n) {
        return ClassFile.of().build(ClassDesc.of(binaryName), cb -> cb
                .withFlags(AccessFlag.PUBLIC)
                .withMethodBody("spin" + n, MethodTypeDesc.of(ConstantDescs.CD_int, ConstantDescs.CD_int),
                        ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC, code -> {
                            Label loop = code.newLabel();
                            Label done = code.newLabel();
                            code.lconst_0().lstore(1);
                            code.labelBinding(loop);
                            code.iload(0).ifle(done);
                            code.lload(1).ldc(31L).lmul().iload(0).i2l().ladd().lstore(1);
                            code.iinc(0, -1).goto_(loop);
                            code.labelBinding(done);
                            code.lload(1).l2i().ireturn();
                        }));
    }

    static Class<?> hidden(int n) {
        try {
            return MethodHandles.lookup().defineHiddenClass(classFile("example.workload.HiddenChurn" + n, n), true).lookupClass();
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    static final class Loader extends ClassLoader {
        Loader() {
            super("churn", SampledChurn.class.getClassLoader());
        }

        Class<?> define(int n) {
            byte[] bytes = classFile("gen.Churn" + n, n);
            return defineClass("gen.Churn" + n, bytes, 0, bytes.length);
        }
    }
}
