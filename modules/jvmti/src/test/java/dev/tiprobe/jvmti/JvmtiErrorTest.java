package dev.tiprobe.jvmti;

import dev.tiprobe.bindings.jvmti.jvmti_h;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JvmtiErrorTest {
    @Test
    void everyErrorCodeOfTheHeaderHasItsName() throws Exception {
        int checked = 0;
        for (Method m : jvmti_h.class.getMethods()) {
            String name = m.getName();
            if (!name.startsWith("JVMTI_ERROR_") || name.equals("JVMTI_ERROR_MAX")
                    || !Modifier.isStatic(m.getModifiers()) || m.getParameterCount() != 0) continue;
            int code = (int) m.invoke(null);
            JvmtiError error = JvmtiError.of(code);
            assertNotNull(error, name + " = " + code + " has no JvmtiError");
            assertEquals(name.substring("JVMTI_ERROR_".length()), error.name());
            checked++;
        }
        assertEquals(JvmtiError.values().length, checked);
    }

    @Test
    void exceptionSaysWhichFunctionFailedWithWhichError() {
        JvmtiException e = new JvmtiException("GetClassSignature", 21);
        assertEquals("GetClassSignature failed: INVALID_CLASS (21)", e.getMessage());
        assertEquals(JvmtiError.INVALID_CLASS, e.error());
        assertNull(JvmtiError.of(9999));
        assertTrue(new JvmtiException("X", 9999).getMessage().contains("unknown error (9999)"));
    }
}
