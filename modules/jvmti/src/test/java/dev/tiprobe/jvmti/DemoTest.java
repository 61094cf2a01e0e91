package dev.tiprobe.jvmti;

import dev.tiprobe.jvmti.demo.JvmtiDemo;
import dev.tiprobe.testing.Command;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The README's main job, in a JVM of its own that denies native access to anyone not named. */
class DemoTest {
    @Test
    void demoPrintsVersionCapabilitiesClassesAndClassPrepareEvents() throws Exception {
        Command.Run r = Command.onTestClassPath(List.of("--illegal-native-access=deny", "--enable-native-access=ALL-UNNAMED"),
                JvmtiDemo.class.getName());
        String out = r.all();
        assertEquals(0, r.exit(), out);
        assertTrue(out.contains("JVMTI version: " + Runtime.version().feature() + ".0.0"), out);
        assertTrue(out.contains("Potential capabilities in the live phase: 27 of 45"), out);
        assertTrue(out.contains("  can_retransform_classes"), out);
        Matcher loaded = Pattern.compile("Loaded classes: (\\d+)").matcher(out);
        assertTrue(loaded.find() && Integer.parseInt(loaded.group(1)) > 500, out);
        Matcher events = Pattern.compile("ClassPrepare events while loading a few classes: (\\d+)").matcher(out);
        assertTrue(events.find() && Integer.parseInt(events.group(1)) > 0, out);
        assertTrue(out.contains("java.util.concurrent.Phaser on main"), out);
        assertTrue(out.contains("dev.tiprobe.jvmti.demo.JvmtiDemo$1 on main"), "the anonymous class: " + out);
        assertTrue(out.contains("dev.tiprobe.jvmti.demo.JvmtiDemo$$Lambda"), "the lambda: " + out);
        assertTrue(!out.contains("WARNING"), "no JDK warnings: " + out);
    }
}
