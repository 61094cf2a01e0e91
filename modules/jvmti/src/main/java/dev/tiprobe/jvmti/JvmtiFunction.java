package dev.tiprobe.jvmti;

import dev.tiprobe.bindings.jvmti.jvmtiInterface_1_;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;

import static dev.tiprobe.jvmti.Native.C_POINTER;

/**
 * The JVMTI functions the facade calls, one line each: where its pointer sits in the jvmtiEnv's
 * function table, and how to link its downcall ahead of time. Calling a new JVMTI function is a
 * line here and the call itself. The constants carry JVMTI's own names so a reader can grep
 * {@code jvmti.h} for them.
 *
 * <p>SetEventNotificationMode is absent: jextract skips it, being variadic, and {@link Native}
 * links it by hand.
 */
enum JvmtiFunction {
    AddCapabilities(jvmtiInterface_1_.AddCapabilities$offset(), jvmtiInterface_1_.AddCapabilities.descriptor()),
    AddModuleReads(jvmtiInterface_1_.AddModuleReads$offset(), jvmtiInterface_1_.AddModuleReads.descriptor()),
    Allocate(jvmtiInterface_1_.Allocate$offset(), jvmtiInterface_1_.Allocate.descriptor()),
    Deallocate(jvmtiInterface_1_.Deallocate$offset(), jvmtiInterface_1_.Deallocate.descriptor()),
    GetAllStackTraces(jvmtiInterface_1_.GetAllStackTraces$offset(), jvmtiInterface_1_.GetAllStackTraces.descriptor()),
    GetBytecodes(jvmtiInterface_1_.GetBytecodes$offset(), jvmtiInterface_1_.GetBytecodes.descriptor()),
    GetCapabilities(jvmtiInterface_1_.GetCapabilities$offset(), jvmtiInterface_1_.GetCapabilities.descriptor()),
    GetClassLoader(jvmtiInterface_1_.GetClassLoader$offset(), jvmtiInterface_1_.GetClassLoader.descriptor()),
    GetClassLoaderClasses(jvmtiInterface_1_.GetClassLoaderClasses$offset(), jvmtiInterface_1_.GetClassLoaderClasses.descriptor()),
    GetClassMethods(jvmtiInterface_1_.GetClassMethods$offset(), jvmtiInterface_1_.GetClassMethods.descriptor()),
    GetClassSignature(jvmtiInterface_1_.GetClassSignature$offset(), jvmtiInterface_1_.GetClassSignature.descriptor()),
    GetClassStatus(jvmtiInterface_1_.GetClassStatus$offset(), jvmtiInterface_1_.GetClassStatus.descriptor()),
    GetConstantPool(jvmtiInterface_1_.GetConstantPool$offset(), jvmtiInterface_1_.GetConstantPool.descriptor()),
    GetExtensionEvents(jvmtiInterface_1_.GetExtensionEvents$offset(), jvmtiInterface_1_.GetExtensionEvents.descriptor()),
    GetExtensionFunctions(jvmtiInterface_1_.GetExtensionFunctions$offset(), jvmtiInterface_1_.GetExtensionFunctions.descriptor()),
    GetLineNumberTable(jvmtiInterface_1_.GetLineNumberTable$offset(), jvmtiInterface_1_.GetLineNumberTable.descriptor()),
    GetLoadedClasses(jvmtiInterface_1_.GetLoadedClasses$offset(), jvmtiInterface_1_.GetLoadedClasses.descriptor()),
    GetMethodDeclaringClass(jvmtiInterface_1_.GetMethodDeclaringClass$offset(), jvmtiInterface_1_.GetMethodDeclaringClass.descriptor()),
    GetMethodModifiers(jvmtiInterface_1_.GetMethodModifiers$offset(), jvmtiInterface_1_.GetMethodModifiers.descriptor()),
    GetMethodName(jvmtiInterface_1_.GetMethodName$offset(), jvmtiInterface_1_.GetMethodName.descriptor()),
    GetNamedModule(jvmtiInterface_1_.GetNamedModule$offset(), jvmtiInterface_1_.GetNamedModule.descriptor()),
    GetObjectMonitorUsage(jvmtiInterface_1_.GetObjectMonitorUsage$offset(), jvmtiInterface_1_.GetObjectMonitorUsage.descriptor()),
    GetPotentialCapabilities(jvmtiInterface_1_.GetPotentialCapabilities$offset(), jvmtiInterface_1_.GetPotentialCapabilities.descriptor()),
    GetSourceFileName(jvmtiInterface_1_.GetSourceFileName$offset(), jvmtiInterface_1_.GetSourceFileName.descriptor()),
    GetStackTrace(jvmtiInterface_1_.GetStackTrace$offset(), jvmtiInterface_1_.GetStackTrace.descriptor()),
    GetTag(jvmtiInterface_1_.GetTag$offset(), jvmtiInterface_1_.GetTag.descriptor()),
    GetThreadCpuTime(jvmtiInterface_1_.GetThreadCpuTime$offset(), jvmtiInterface_1_.GetThreadCpuTime.descriptor()),
    GetThreadInfo(jvmtiInterface_1_.GetThreadInfo$offset(), jvmtiInterface_1_.GetThreadInfo.descriptor()),
    GetThreadState(jvmtiInterface_1_.GetThreadState$offset(), jvmtiInterface_1_.GetThreadState.descriptor()),
    GetThreadListStackTraces(jvmtiInterface_1_.GetThreadListStackTraces$offset(), jvmtiInterface_1_.GetThreadListStackTraces.descriptor()),
    GetVersionNumber(jvmtiInterface_1_.GetVersionNumber$offset(), jvmtiInterface_1_.GetVersionNumber.descriptor()),
    IsMethodObsolete(jvmtiInterface_1_.IsMethodObsolete$offset(), jvmtiInterface_1_.IsMethodObsolete.descriptor()),
    IsModifiableClass(jvmtiInterface_1_.IsModifiableClass$offset(), jvmtiInterface_1_.IsModifiableClass.descriptor()),
    RelinquishCapabilities(jvmtiInterface_1_.RelinquishCapabilities$offset(), jvmtiInterface_1_.RelinquishCapabilities.descriptor()),
    RetransformClasses(jvmtiInterface_1_.RetransformClasses$offset(), jvmtiInterface_1_.RetransformClasses.descriptor()),
    SetEventCallbacks(jvmtiInterface_1_.SetEventCallbacks$offset(), jvmtiInterface_1_.SetEventCallbacks.descriptor()),
    SetExtensionEventCallback(jvmtiInterface_1_.SetExtensionEventCallback$offset(), jvmtiInterface_1_.SetExtensionEventCallback.descriptor()),
    SetHeapSamplingInterval(jvmtiInterface_1_.SetHeapSamplingInterval$offset(), jvmtiInterface_1_.SetHeapSamplingInterval.descriptor()),
    SetTag(jvmtiInterface_1_.SetTag$offset(), jvmtiInterface_1_.SetTag.descriptor());

    private final long offset;

    /**
     * {@code descriptorAskedToLink} is the function's descriptor, asked of jextract's class for the function
     * so that the class initializes, making its downcall handle, when this enum does: a plain
     * call rather than a method reference, each of which would spin a class of its own in the
     * target at the agent's start.
     */
    JvmtiFunction(long offset, FunctionDescriptor descriptorAskedToLink) {
        this.offset = offset;
    }

    /** The function's pointer in {@code table}, the jvmtiEnv's function table. */
    MemorySegment in(MemorySegment table) {
        return table.get(C_POINTER, offset);
    }

    /**
     * Creates the downcall handles of every function: jextract makes a function's handle when its
     * class initializes, which asking for the descriptor does (see {@link Native#prelink()}).
     */
    static void prelinkAll() {
        values();  // initializing the enum links them all
    }
}
