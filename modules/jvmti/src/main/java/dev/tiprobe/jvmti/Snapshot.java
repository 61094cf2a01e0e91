package dev.tiprobe.jvmti;

import dev.tiprobe.bindings.jvmti.jvmtiInterface_1_;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.tiprobe.jvmti.Native.C_POINTER;
import static dev.tiprobe.jvmti.Native.check;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * One pass over every loaded class: {@link Jvmti#snapshotLoadedClasses()}.
 *
 * <p>Each class is finished before the next (signature, methods, every method's name), as a C
 * agent would: naming a class's methods right after GetClassMethods finds its Method structures
 * still in the CPU cache; naming all methods afterwards was measured much slower (BENCHMARKS.md).
 * The jclass references stay valid under {@link Refs}; the Class objects in the result keep every
 * class loaded.
 */
final class Snapshot {
    private final Native n;

    Snapshot(Native n) {
        this.n = n;
    }

    List<Jvmti.ClassSnapshot> take() {
        try (Scratch s = Scratch.open(); Refs refs = Refs.open(n)) {
            MemorySegment count = s.alloc(4);
            MemorySegment out = s.alloc(C_POINTER.byteSize());
            MemorySegment out2 = s.alloc(C_POINTER.byteSize());
            MemorySegment out3 = s.alloc(C_POINTER.byteSize());
            check("GetLoadedClasses", jvmtiInterface_1_.GetLoadedClasses.invoke(n.fn(JvmtiFunction.GetLoadedClasses), n.env, count, out));
            refs.keep();
            int size = count.get(JAVA_INT, 0);
            MemorySegment classRefs = Native.array(out.get(C_POINTER, 0), size, C_POINTER.byteSize());
            try {
                Class<?>[] classes = new Class<?>[size];
                MemorySegment classesRef = refs.of(classes);
                List<Jvmti.ClassSnapshot> result = new ArrayList<>(size);
                for (int i = 0; i < size; i++) {
                    MemorySegment klass = classRefs.getAtIndex(C_POINTER, i);
                    n.setObjectArrayElement(refs.jniEnv, classesRef, i, klass);
                    String signature = null, generic = null;
                    if (jvmtiInterface_1_.GetClassSignature.invoke(n.fn(JvmtiFunction.GetClassSignature), n.env, klass, out, out2) == 0) {
                        signature = n.takeString(out, out2);
                        generic = n.takeString(out2);
                    }
                    List<Jvmti.MethodSnapshot> methods = null;
                    if (jvmtiInterface_1_.GetClassMethods.invoke(n.fn(JvmtiFunction.GetClassMethods), n.env, klass, count, out) == 0) {
                        methods = methods(out.get(C_POINTER, 0), count.get(JAVA_INT, 0), out, out2, out3);
                    }
                    result.add(new Jvmti.ClassSnapshot(classes[i], signature, generic, methods));
                }
                return result;
            } finally {
                n.deallocate(classRefs);
            }
        }
    }

    /** Names every method of a GetClassMethods array and Deallocates it, also on failure. */
    private List<Jvmti.MethodSnapshot> methods(MemorySegment idArray, int count, MemorySegment name,
                                               MemorySegment descriptor, MemorySegment generic) {
        MemorySegment ids = Native.array(idArray, count, JAVA_LONG.byteSize());
        try {
            Jvmti.MethodSnapshot[] methods = new Jvmti.MethodSnapshot[count];
            for (int m = 0; m < count; m++) {
                long id = ids.getAtIndex(JAVA_LONG, m);
                check("GetMethodName", jvmtiInterface_1_.GetMethodName.invoke(
                        n.fn(JvmtiFunction.GetMethodName), n.env, MemorySegment.ofAddress(id), name, descriptor, generic));
                methods[m] = new Jvmti.MethodSnapshot(id, n.takeString(name, descriptor, generic), n.takeString(descriptor, generic), n.takeString(generic));
            }
            return Arrays.asList(methods);
        } finally {
            n.deallocate(ids);
        }
    }
}
