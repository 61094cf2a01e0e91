package dev.tiprobe.jvmti;

import dev.tiprobe.bindings.jvmti.JNINativeInterface_;

import java.lang.foreign.MemorySegment;
import java.util.function.Supplier;

import static dev.tiprobe.jvmti.Native.C_POINTER;

/**
 * The JNI functions the facade calls, one line each, as {@link JvmtiFunction} lists JVMTI's: the
 * pointer's place in the JNIEnv's function table and how to link its downcall ahead of time.
 */
enum JniFunction {
    CallObjectMethodA(JNINativeInterface_.CallObjectMethodA$offset(), JNINativeInterface_.CallObjectMethodA::descriptor),
    CallStaticObjectMethodA(JNINativeInterface_.CallStaticObjectMethodA$offset(), JNINativeInterface_.CallStaticObjectMethodA::descriptor),
    DefineClass(JNINativeInterface_.DefineClass$offset(), JNINativeInterface_.DefineClass::descriptor),
    ExceptionCheck(JNINativeInterface_.ExceptionCheck$offset(), JNINativeInterface_.ExceptionCheck::descriptor),
    ExceptionClear(JNINativeInterface_.ExceptionClear$offset(), JNINativeInterface_.ExceptionClear::descriptor),
    GetMethodID(JNINativeInterface_.GetMethodID$offset(), JNINativeInterface_.GetMethodID::descriptor),
    GetObjectArrayElement(JNINativeInterface_.GetObjectArrayElement$offset(), JNINativeInterface_.GetObjectArrayElement::descriptor),
    GetStaticFieldID(JNINativeInterface_.GetStaticFieldID$offset(), JNINativeInterface_.GetStaticFieldID::descriptor),
    GetStaticMethodID(JNINativeInterface_.GetStaticMethodID$offset(), JNINativeInterface_.GetStaticMethodID::descriptor),
    GetStaticObjectField(JNINativeInterface_.GetStaticObjectField$offset(), JNINativeInterface_.GetStaticObjectField::descriptor),
    NewGlobalRef(JNINativeInterface_.NewGlobalRef$offset(), JNINativeInterface_.NewGlobalRef::descriptor),
    PopLocalFrame(JNINativeInterface_.PopLocalFrame$offset(), JNINativeInterface_.PopLocalFrame::descriptor),
    PushLocalFrame(JNINativeInterface_.PushLocalFrame$offset(), JNINativeInterface_.PushLocalFrame::descriptor),
    SetObjectArrayElement(JNINativeInterface_.SetObjectArrayElement$offset(), JNINativeInterface_.SetObjectArrayElement::descriptor);

    private final long offset;
    private final Supplier<?> prelink;

    JniFunction(long offset, Supplier<?> prelink) {
        this.offset = offset;
        this.prelink = prelink;
    }

    /** The function's pointer in {@code table}, the JNIEnv's function table. */
    MemorySegment in(MemorySegment table) {
        return table.get(C_POINTER, offset);
    }

    /** Creates the downcall handles of every function ahead of their first call. */
    static void prelinkAll() {
        for (JniFunction f : values()) f.prelink.get();
    }
}
