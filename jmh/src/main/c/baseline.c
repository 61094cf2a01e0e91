/*
 * C baselines for tiprobe's JMH benchmarks, compiled by the benchmark with gcc at set-up and called
 * through FFM. Not part of the product.
 */
#include <jni.h>
#include <jvmti.h>

static JavaVM *vm;
static jvmtiEnv *jvmti;

/* Acquires a jvmtiEnv of its own, the way a C agent would. Returns 0 on success. */
int tiprobe_baseline_init(void) {
    jsize count = 0;
    if (JNI_GetCreatedJavaVMs(&vm, 1, &count) != JNI_OK || count != 1) return 1;
    if ((*vm)->GetEnv(vm, (void **) &jvmti, JVMTI_VERSION) != JNI_OK) return 2;
    return 0;
}

/*
 * The backfill: GetLoadedClasses, then for every class GetClassSignature and GetClassMethods, and
 * for every method GetMethodName; everything Deallocated. Local references live in a local frame.
 * Returns the number of methods named, or a negative JVMTI error.
 */
long tiprobe_backfill(void) {
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **) &env, JNI_VERSION_1_8) != JNI_OK) return -1;
    if ((*env)->PushLocalFrame(env, 16) != 0) return -2;
    jint class_count = 0;
    jclass *classes = NULL;
    jvmtiError err = (*jvmti)->GetLoadedClasses(jvmti, &class_count, &classes);
    long named = 0;
    if (err != JVMTI_ERROR_NONE) {
        (*env)->PopLocalFrame(env, NULL);
        return -(long) err;
    }
    for (jint i = 0; i < class_count; i++) {
        char *sig = NULL, *generic = NULL;
        if ((*jvmti)->GetClassSignature(jvmti, classes[i], &sig, &generic) == JVMTI_ERROR_NONE) {
            (*jvmti)->Deallocate(jvmti, (unsigned char *) sig);
            (*jvmti)->Deallocate(jvmti, (unsigned char *) generic);
        }
        jint method_count = 0;
        jmethodID *methods = NULL;
        if ((*jvmti)->GetClassMethods(jvmti, classes[i], &method_count, &methods) != JVMTI_ERROR_NONE) continue;
        for (jint m = 0; m < method_count; m++) {
            char *name = NULL, *msig = NULL, *mgeneric = NULL;
            if ((*jvmti)->GetMethodName(jvmti, methods[m], &name, &msig, &mgeneric) == JVMTI_ERROR_NONE) {
                named++;
                (*jvmti)->Deallocate(jvmti, (unsigned char *) name);
                (*jvmti)->Deallocate(jvmti, (unsigned char *) msig);
                (*jvmti)->Deallocate(jvmti, (unsigned char *) mgeneric);
            }
        }
        (*jvmti)->Deallocate(jvmti, (unsigned char *) methods);
    }
    (*jvmti)->Deallocate(jvmti, (unsigned char *) classes);
    (*env)->PopLocalFrame(env, NULL);
    return named;
}

/* Calls fn n times: with a Java upcall stub it measures the upcall round trip. */
long tiprobe_call_n(long (*fn)(long), long n) {
    long sum = 0;
    for (long i = 0; i < n; i++) sum += fn(i);
    return sum;
}

/* A C callee for tiprobe_call_n: the same loop without any Java. */
long tiprobe_c_identity(long x) {
    return x;
}
