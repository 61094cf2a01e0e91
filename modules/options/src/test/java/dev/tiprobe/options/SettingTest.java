package dev.tiprobe.options;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The options table: the reference in docs/ is made from it, and what an option needs is checked once, in its words. */
class SettingTest {
    /** The tests run in the module's directory. */
    static final Path REFERENCE = Path.of("..", "..", "docs", "options.md");

    /**
     * docs/options.md is the table's: regenerate it with
     * {@code ./mvnw25 -pl modules/options -am test -Dtest=SettingTest -Dsurefire.failIfNoSpecifiedTests=false -Dtiprobe.docs.write=true}.
     */
    @Test
    void theOptionsReferenceIsTheTables() throws IOException {
        String made = Setting.reference();
        if (Boolean.getBoolean("tiprobe.docs.write")) Files.writeString(REFERENCE, made);
        assertEquals(made, Files.readString(REFERENCE), "docs/options.md is stale: regenerate it as SettingTest says");
    }

    @Test
    void everyKeyIsFoundAndAnUnknownOneIsNamed() {
        for (Setting s : Setting.values()) assertEquals(s, Setting.ofKey(s.key()));
        assertEquals("unknown option 'intervall'", assertThrows(IllegalArgumentException.class, () -> Setting.ofKey("intervall")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Setting.ofKey("sample")).getMessage().startsWith("sample= is now onein="));
    }

    @Test
    void whatAnOptionNeedsIsNamedInTheWordsOfWhoeverGaveIt() {
        Map<Setting, String> given = new EnumMap<>(Setting.class);
        given.put(Setting.LIVE, "--live");
        assertEquals("--live is for allocation profiling: it needs --alloc <bytes> or -e alloc",
                assertThrows(IllegalArgumentException.class, () -> Setting.checkNeeds(given, null, Setting.Naming.COMMAND)).getMessage());
        given.put(Setting.ALLOC, "--alloc");
        Setting.checkNeeds(given, null, Setting.Naming.COMMAND);

        Map<Setting, String> limits = new EnumMap<>(Setting.class);
        limits.put(Setting.TRACE, "trace");
        limits.put(Setting.MAX_CALLS, "maxcalls");
        assertEquals("maxcalls is for trace mode: it needs trace=<filter> and mode=trace",
                assertThrows(IllegalArgumentException.class, () -> Setting.checkNeeds(limits, AgentOptions.TraceMode.TIME, Setting.Naming.AGENT)).getMessage());
        Setting.checkNeeds(limits, AgentOptions.TraceMode.TRACE, Setting.Naming.AGENT);
    }

    /** The agent refuses what the command refuses: a trace limit outside trace mode, a loop's keep without a loop. */
    @Test
    void theAgentChecksTheSameNeeds() {
        assertEquals("maxcalls is for trace mode: it needs trace=<filter> and mode=trace",
                assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("trace=a.*,maxcalls=5")).getMessage());
        assertEquals("keep is for a loop of recordings: it needs loop=<period>",
                assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("interval=10ms,keep=5")).getMessage());
        assertEquals("depth is for stack sampling: it needs interval=<duration>",
                assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("alloc=1m,depth=5")).getMessage());
    }
}
