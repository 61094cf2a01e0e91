package dev.tiprobe.options;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AgentControlTest {
    /** The command's control keys come off the agent's arguments wherever they stand; the rest are the session's settings as written. */
    @Test
    void theControlKeysComeOffAndTheSettingsStayAsWritten() {
        String settings = "file=/tmp/r.tpr,trace=a.B::sum(II)I;a.C::*,mode=count";
        String args = String.join(",", AgentControl.option(AgentControl.COMMAND, "start"), settings,
                AgentControl.option(AgentControl.PROGRESS, "/tmp/p"), AgentControl.option(AgentControl.OWNER, "42:1000"),
                AgentControl.option(AgentControl.REPLY, "/tmp/reply"));
        assertEquals(new AgentControl("start", "/tmp/reply", "/tmp/p", "42:1000", settings), AgentControl.of(args));
        assertEquals(new AgentControl("stop", null, null, null, ""), AgentControl.of("command=stop"));
        assertEquals(new AgentControl("start", null, null, null, "interval=10ms"), AgentControl.of("interval=10ms"),
                "-javaagent's options: no command, start");
        assertEquals(new AgentControl("start", null, null, null, ""), AgentControl.of(null));
    }
}
