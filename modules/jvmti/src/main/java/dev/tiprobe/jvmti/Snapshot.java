package dev.tiprobe.jvmti;

import dev.tiprobe.bindings.jvmti.jvmtiInterface_1_;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.tiprobe.jvmti.Native.C_POINTER;
import static dev.tiprobe.jvmti.Native.NULL;
import static dev.tiprobe.jvmti.Native.check;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * One pass over every loaded class: {@link Jvmti#snapshotLoadedClasses()}.
 *
 * <p>Two phases: phase one walks the jclass references (kept alive by {@link Refs}) making only
 * the class-level calls and keeping raw pointers in Java arrays; phase two needs no references,
 * since GetMethodName works on jmethodIDs, decodes every name and Deallocates everything, also
 * when something fails half-way. The Class objects in the result keep every class loaded.
 */
final class Snapshot {
    private final Native n;

    Snapshot(Native n) {
        this.n = n;
    }

    List<Jvmti.ClassSnapshot> take() {
        Class<?>[] classes;
        long[] signatures, generics, methodArrays;
        int[] methodCounts;
        try (Scratch s = Scratch.open(); Refs refs = Refs.open(n)) {
            MemorySegment count = s.alloc(4);
            MemorySegment out = s.alloc(C_POINTER.byteSize());
            MemorySegment out2 = s.alloc(C_POINTER.byteSize());
            check("GetLoadedClasses", jvmtiInterface_1_.GetLoadedClasses.invoke(n.fnGetLoadedClasses, n.env, count, out));
            refs.keep();
            int size = count.get(JAVA_INT, 0);
            MemorySegment classRefs = Native.array(out.get(C_POINTER, 0), size, C_POINTER.byteSize());
            classes = new Class<?>[size];
            signatures = new long[size];
            generics = new long[size];
            methodArrays = new long[size];
            methodCounts = new int[size];
            Arrays.fill(methodCounts, -1);
            try {
                MemorySegment classesRef = refs.of(classes);
                for (int i = 0; i < size; i++) {
                    MemorySegment klass = classRefs.getAtIndex(C_POINTER, i);
                    n.setObjectArrayElement(refs.jniEnv, classesRef, i, klass);
                    int rc = jvmtiInterface_1_.GetClassSignature.invoke(n.fnGetClassSignature, n.env, klass, out, out2);
                    if (rc == 0) {
                        signatures[i] = out.get(JAVA_LONG, 0);
                        generics[i] = out2.get(JAVA_LONG, 0);
                    }
                    rc = jvmtiInterface_1_.GetClassMethods.invoke(n.fnGetClassMethods, n.env, klass, count, out);
                    if (rc == 0) {
                        methodCounts[i] = count.get(JAVA_INT, 0);
                        methodArrays[i] = out.get(JAVA_LONG, 0);
                    }
                }
            } finally {
                n.deallocate(classRefs);
            }
        }
        return describe(classes, signatures, generics, methodArrays, methodCounts);
    }

    /** Phase two: names and descriptors; frees every JVMTI allocation, also on failure. */
    private List<Jvmti.ClassSnapshot> describe(Class<?>[] classes, long[] signatures, long[] generics,
                                               long[] methodArrays, int[] methodCounts) {
        List<Jvmti.ClassSnapshot> result = new ArrayList<>(classes.length);
        int i = 0;
        try (Scratch s = Scratch.open()) {
            MemorySegment name = s.alloc(C_POINTER.byteSize());
            MemorySegment sig = s.alloc(C_POINTER.byteSize());
            MemorySegment generic = s.alloc(C_POINTER.byteSize());
            for (; i < classes.length; i++) {
                String signature = take(signatures, i);
                String genericSignature = take(generics, i);
                List<Jvmti.MethodSnapshot> methods = null;
                if (methodCounts[i] >= 0) {
                    MemorySegment ids = Native.array(MemorySegment.ofAddress(methodArrays[i]), methodCounts[i], 8);
                    Jvmti.MethodSnapshot[] array = new Jvmti.MethodSnapshot[methodCounts[i]];
                    try {
                        for (int m = 0; m < array.length; m++) {
                            long id = ids.getAtIndex(JAVA_LONG, m);
                            check("GetMethodName", jvmtiInterface_1_.GetMethodName.invoke(
                                    n.fnGetMethodName, n.env, MemorySegment.ofAddress(id), name, sig, generic));
                            array[m] = new Jvmti.MethodSnapshot(id, n.takeString(name), n.takeString(sig), n.takeString(generic));
                        }
                    } finally {
                        n.deallocate(ids);
                        methodArrays[i] = 0;
                    }
                    methods = Arrays.asList(array);
                }
                result.add(new Jvmti.ClassSnapshot(classes[i], signature, genericSignature, methods));
            }
        } finally {
            for (; i < classes.length; i++) {
                n.deallocate(MemorySegment.ofAddress(signatures[i]));
                n.deallocate(MemorySegment.ofAddress(generics[i]));
                n.deallocate(MemorySegment.ofAddress(methodArrays[i]));
            }
        }
        return result;
    }

    private String take(long[] pointers, int i) {
        MemorySegment p = MemorySegment.ofAddress(pointers[i]);
        pointers[i] = 0;
        try {
            return Native.string(p);
        } finally {
            if (!p.equals(NULL)) n.deallocate(p);
        }
    }
}
