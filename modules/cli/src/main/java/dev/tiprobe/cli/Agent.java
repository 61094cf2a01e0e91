package dev.tiprobe.cli;

import dev.tiprobe.recording.Reply;

import dev.tiprobe.options.AgentOptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the agent jar is, and the file names the agent writes to. */
final class Agent {
    private Agent() {}

    /**
     * The agent jar: {@code lib/tiprobe-agent.jar} of this runtime image (the probe jar sits next
     * to it), or the path in the system property {@code tiprobe.agent.jar}.
     */
    static Path jar() throws CliException {
        String configured = System.getProperty("tiprobe.agent.jar");
        Path jar = configured != null ? Path.of(configured) : Path.of(System.getProperty("java.home"), "lib", "tiprobe-agent.jar");
        if (!Files.isRegularFile(jar)) throw new CliException("agent jar not found: " + jar);
        return jar.toAbsolutePath();
    }

    /** The probe jar, which ships next to the agent jar. */
    static Path probeJar() throws CliException {
        Path jar = jar().resolveSibling("tiprobe-probe.jar");
        if (!Files.isRegularFile(jar)) throw new CliException("probe jar not found: " + jar + " (it ships next to the agent jar)");
        return jar;
    }

    /**
     * {@code %p}: the target's pid (left for the agent when {@code pid} is null), {@code %t}: a
     * timestamp; absolute, since the target has its own working directory.
     */
    static Path output(String pattern, Long pid) {
        return Path.of(pid == null ? AgentOptions.expandTime(pattern) : AgentOptions.expand(pattern, pid)).toAbsolutePath();
    }

    /** A loop's output pattern: {@code %p} expanded, {@code %t} left for the agent to fill in at each period. */
    static Path loopOutput(String pattern, long pid) {
        return Path.of(pattern.replace("%p", Long.toString(pid))).toAbsolutePath();
    }

    /** A file only this user can read, for the agent to answer in. */
    static Path tempFile(String prefix) throws CliException {
        try {
            return Files.createTempFile(prefix, ".txt");  // rw------- on POSIX
        } catch (IOException e) {
            throw new CliException("cannot create a temporary file: " + e.getMessage(), e);
        }
    }

    /** The reply the agent left in {@code file}; null when there is none yet (or not a whole one). */
    static Reply read(Path file) {
        try {
            return Reply.decode(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
    }

    static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a temporary file left behind is harmless
        }
    }

    /** A directory only this user can enter, for a recording the command reads and throws away. */
    static Path tempDirectory(String prefix) throws CliException {
        try {
            return Files.createTempDirectory(prefix);  // rwx------ on POSIX
        } catch (IOException e) {
            throw new CliException("cannot create a temporary directory: " + e.getMessage(), e);
        }
    }

    /** Deletes {@code dir} and the files in it (a temporary directory of {@link #tempDirectory}). */
    static void deleteDirectory(Path dir) {
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            files.forEach(Agent::delete);
        } catch (IOException ignored) {
            // gone already, or left behind: harmless
        }
        delete(dir);
    }
}
