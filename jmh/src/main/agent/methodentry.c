/*
 * The classic JVMTI method tracer, for EnterPathBench: a MethodEntry callback that counts the
 * calls of bench.target.Work.work and work2. Built by the jmh module (gcc), loaded with
 * -agentpath. MethodEntry events keep every thread in the interpreter while they are enabled.
 */
#include <jvmti.h>
#include <string.h>

static jmethodID work, work2;
static volatile long long calls;

static void JNICALL on_prepare(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jclass klass) {
    char *sig = NULL;
    if ((*jvmti)->GetClassSignature(jvmti, klass, &sig, NULL) != JVMTI_ERROR_NONE) return;
    if (strcmp(sig, "Lbench/target/Work;") == 0) {
        jint n = 0;
        jmethodID *methods = NULL;
        if ((*jvmti)->GetClassMethods(jvmti, klass, &n, &methods) == JVMTI_ERROR_NONE) {
            for (jint i = 0; i < n; i++) {
                char *name = NULL;
                if ((*jvmti)->GetMethodName(jvmti, methods[i], &name, NULL, NULL) != JVMTI_ERROR_NONE) continue;
                if (strcmp(name, "work") == 0) work = methods[i];
                if (strcmp(name, "work2") == 0) work2 = methods[i];
                (*jvmti)->Deallocate(jvmti, (unsigned char *) name);
            }
            (*jvmti)->Deallocate(jvmti, (unsigned char *) methods);
        }
    }
    (*jvmti)->Deallocate(jvmti, (unsigned char *) sig);
}

static void JNICALL on_entry(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method) {
    if (method == work || method == work2) __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved) {
    jvmtiEnv *jvmti;
    if ((*vm)->GetEnv(vm, (void **) &jvmti, JVMTI_VERSION_1_2) != JNI_OK) return 1;
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    caps.can_generate_method_entry_events = 1;
    if ((*jvmti)->AddCapabilities(jvmti, &caps) != JVMTI_ERROR_NONE) return 1;
    jvmtiEventCallbacks callbacks;
    memset(&callbacks, 0, sizeof callbacks);
    callbacks.ClassPrepare = on_prepare;
    callbacks.MethodEntry = on_entry;
    (*jvmti)->SetEventCallbacks(jvmti, &callbacks, sizeof callbacks);
    (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_CLASS_PREPARE, NULL);
    (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_METHOD_ENTRY, NULL);
    return 0;
}
