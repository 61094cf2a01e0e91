package example.workload;

import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.ref.WeakReference;
import java.math.BigDecimal;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Methods that take objects, for trace mode to show by their fields: a plain class with private
 * fields, a record, a cyclic pair, a huge array, an object whose toString() and hashCode() throw
 * (and count their calls, which must stay 0), a JDK class in a package java.base does not open,
 * and an object of a class from a throwaway loader that is collected afterwards (stderr says so).
 */
public class Objects {
    static int toStrings;
    static int hashCodes;

    static final class Customer {
        private final String id;
        private int visits;

        Customer(String id, int visits) {
            this.id = id;
            this.visits = visits;
        }
    }

    static final class Order {
        private final long id;
        private final Customer customer;
        private final BigDecimal total;
        private final List<String> lines;

        Order(long id, Customer customer, BigDecimal total, List<String> lines) {
            this.id = id;
            this.customer = customer;
            this.total = total;
            this.lines = lines;
        }
    }

    record Point(int x, int y) {}

    static final class Node {
        final String name;
        Node next;

        Node(String name) {
            this.name = name;
        }
    }

    static final class Bomb {
        private final int fuse = 3;

        @Override
        public String toString() {
            toStrings++;
            throw new IllegalStateException("toString must not run");
        }

        @Override
        public int hashCode() {
            hashCodes++;
            throw new IllegalStateException("hashCode must not run");
        }

        @Override
        public boolean equals(Object o) {
            return o == this;
        }
    }

    static final class Holder {
        private final Object thing;

        Holder(Object thing) {
            this.thing = thing;
        }
    }

    static int checkout(Order order) {
        return order.lines.size();
    }

    static int place(Point p) {
        return p.x() + p.y();
    }

    static String walk(Node n) {
        return n.next.next.name;
    }

    static long sum(int[] big) {
        return big.length;
    }

    static int inspect(Bomb b) {
        return b.fuse;
    }

    static int count(AtomicInteger counter) {
        return counter.get();
    }

    static int hold(Holder h) {
        return h.thing == null ? 0 : 1;
    }

    /** An object of gen.Gone, a class of a loader of its own, passed to hold(); the loader can be collected afterwards. */
    static WeakReference<ClassLoader> throwaway() throws Exception {
        byte[] bytes = ClassFile.of().build(ClassDesc.of("gen.Gone"), cb -> cb
                .withFlags(ClassFile.ACC_PUBLIC)
                .withField("id", ConstantDescs.CD_int, ClassFile.ACC_PUBLIC)
                .withMethodBody(ConstantDescs.INIT_NAME, ConstantDescs.MTD_void, ClassFile.ACC_PUBLIC, code -> code
                        .aload(0).invokespecial(ConstantDescs.CD_Object, ConstantDescs.INIT_NAME, ConstantDescs.MTD_void).return_()));
        ClassLoader loader = new ClassLoader(null) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                if (name.equals("gen.Gone")) return defineClass(name, bytes, 0, bytes.length);
                throw new ClassNotFoundException(name);
            }
        };
        Class<?> gone = loader.loadClass("gen.Gone");
        Object o = gone.getConstructor().newInstance();
        gone.getField("id").setInt(o, 7);
        System.out.println("hold " + hold(new Holder(o)));
        return new WeakReference<>(loader);
    }

    public static void main(String[] args) throws Exception {
        Customer c = new Customer("c-3", 2);
        System.out.println("lines " + checkout(new Order(5, c, new BigDecimal("12.50"), List.of("tea", "mug", "kettle"))));
        System.out.println("place " + place(new Point(3, 4)));
        Node a = new Node("a");
        Node b = new Node("b");
        a.next = b;
        b.next = a;
        System.out.println("walk " + walk(a));
        System.out.println("sum " + sum(new int[1_000_000]));
        System.out.println("inspect " + inspect(new Bomb()));
        System.out.println("count " + count(new AtomicInteger(41)));
        WeakReference<ClassLoader> loader = throwaway();
        for (int i = 0; i < 20 && loader.get() != null; i++) {
            System.gc();
            Thread.sleep(50);
        }
        System.err.println("loader collected " + (loader.get() == null));
        System.out.println("toString " + toStrings + " hashCode " + hashCodes);
    }
}
