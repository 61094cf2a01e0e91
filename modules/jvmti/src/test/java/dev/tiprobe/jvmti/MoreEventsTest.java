package dev.tiprobe.jvmti;

import dev.tiprobe.testing.Command;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MoreEventsTest {
    @Test
    void threadStartAndEndCarryTheThread() throws Exception {
        Events events = Jvmti.get().events();
        Set<Thread> started = ConcurrentHashMap.newKeySet();
        Set<Thread> ended = ConcurrentHashMap.newKeySet();
        Thread t;
        try (Events.Registration a = events.on(Event.THREAD_START, started::add);
             Events.Registration b = events.on(Event.THREAD_END, ended::add)) {
            assertTrue(a != null && b != null);
            t = Thread.ofPlatform().name("tiprobe-test-short-lived").start(() -> { });
            t.join();
        }
        assertTrue(started.contains(t), "ThreadStart");
        assertTrue(ended.contains(t), "ThreadEnd");
    }

    static int hot(int x) {
        return x * 31 + 7;
    }

    @Test
    void compiledMethodLoadNamesTheMethodTheJitCompiled() throws Exception {
        Jvmti jvmti = Jvmti.get();
        Set<Long> compiled = ConcurrentHashMap.newKeySet();
        try (Events.Registration r = jvmti.events().on(Event.COMPILED_METHOD_LOAD, (method, address, size) -> compiled.add(method))) {
            assertTrue(r != null);
            long deadline = System.nanoTime() + 30_000_000_000L;
            int sink = 0;
            while (compiled.stream().noneMatch(m -> isHot(jvmti, m)) && System.nanoTime() < deadline) {
                for (int i = 0; i < 100_000; i++) sink += hot(i);
            }
            assertTrue(sink != 1);
        }
        assertTrue(compiled.stream().anyMatch(m -> isHot(jvmti, m)), "CompiledMethodLoad for hot(int)");
    }

    private static boolean isHot(Jvmti jvmti, long method) {
        try {
            return jvmti.methodName(method).name().equals("hot") && jvmti.methodDeclaringClass(method) == MoreEventsTest.class;
        } catch (JvmtiException e) {
            return false;  // a method of a class that has since unloaded
        }
    }

    @Test
    void vmDeathReachesTheHandlerInAJvmOfItsOwn() throws Exception {
        Command.Run r = Command.onTestClassPath(List.of("--enable-native-access=ALL-UNNAMED"), EventScenarios.class.getName(), "vmdeath");
        assertEquals(0, r.exit(), r.all());
        assertTrue(r.all().contains("VMDeath handler ran"), r.all());
    }

    @Test
    void premainWaitsForTheVmAndThenAcquires(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Premain-Class", EventScenarios.class.getName());
        Path agent = dir.resolve("premain-agent.jar");
        try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(agent), manifest)) {
            jar.flush();
        }
        Command.Run r = Command.onTestClassPath(List.of("--enable-native-access=ALL-UNNAMED", "-javaagent:" + agent),
                EventScenarios.class.getName(), "premain");
        assertEquals(0, r.exit(), r.all());
        assertTrue(r.all().contains("in premain: no VM yet"), r.all());
        assertTrue(r.all().contains("acquired after premain: JVMTI 25"), r.all());
    }
}
