package dev.tiprobe.jvmti;

import dev.tiprobe.bindings.jvmti.JNINativeInterface_;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;

import static dev.tiprobe.jvmti.Native.C_POINTER;

/**
 * The JNI functions the facade calls, one line each, as {@link JvmtiFunction} lists JVMTI's: the
 * pointer's place in the JNIEnv's function table and how to link its downcall ahead of time.
 */
enum JniFunction {
    CallObjectMethodA(JNINativeInterface_.CallObjectMethodA$offset(), JNINativeInterface_.CallObjectMethodA.descriptor()),
    CallStaticObjectMethodA(JNINativeInterface_.CallStaticObjectMethodA$offset(), JNINativeInterface_.CallStaticObjectMethodA.descriptor()),
    DefineClass(JNINativeInterface_.DefineClass$offset(), JNINativeInterface_.DefineClass.descriptor()),
    ExceptionCheck(JNINativeInterface_.ExceptionCheck$offset(), JNINativeInterface_.ExceptionCheck.descriptor()),
    ExceptionClear(JNINativeInterface_.ExceptionClear$offset(), JNINativeInterface_.ExceptionClear.descriptor()),
    GetMethodID(JNINativeInterface_.GetMethodID$offset(), JNINativeInterface_.GetMethodID.descriptor()),
    GetObjectArrayElement(JNINativeInterface_.GetObjectArrayElement$offset(), JNINativeInterface_.GetObjectArrayElement.descriptor()),
    GetStaticFieldID(JNINativeInterface_.GetStaticFieldID$offset(), JNINativeInterface_.GetStaticFieldID.descriptor()),
    GetStaticMethodID(JNINativeInterface_.GetStaticMethodID$offset(), JNINativeInterface_.GetStaticMethodID.descriptor()),
    GetStaticObjectField(JNINativeInterface_.GetStaticObjectField$offset(), JNINativeInterface_.GetStaticObjectField.descriptor()),
    NewGlobalRef(JNINativeInterface_.NewGlobalRef$offset(), JNINativeInterface_.NewGlobalRef.descriptor()),
    PopLocalFrame(JNINativeInterface_.PopLocalFrame$offset(), JNINativeInterface_.PopLocalFrame.descriptor()),
    PushLocalFrame(JNINativeInterface_.PushLocalFrame$offset(), JNINativeInterface_.PushLocalFrame.descriptor()),
    SetObjectArrayElement(JNINativeInterface_.SetObjectArrayElement$offset(), JNINativeInterface_.SetObjectArrayElement.descriptor());

    private final long offset;

    /**
     * {@code descriptorAskedToLink} is the function's descriptor, asked of jextract's class for the function
     * so that the class initializes, making its downcall handle, when this enum does: a plain
     * call rather than a method reference, each of which would spin a class of its own in the
     * target at the agent's start.
     */
    JniFunction(long offset, FunctionDescriptor descriptorAskedToLink) {
        this.offset = offset;
    }

    /** The function's pointer in {@code table}, the JNIEnv's function table. */
    MemorySegment in(MemorySegment table) {
        return table.get(C_POINTER, offset);
    }

    /** Creates the downcall handles of every function ahead of their first call. */
    static void prelinkAll() {
        values();  // initializing the enum links them all
    }
}
