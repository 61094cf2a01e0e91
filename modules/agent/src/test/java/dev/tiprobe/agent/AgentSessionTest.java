package dev.tiprobe.agent;

import dev.tiprobe.agent.sink.EventEngine;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** When the session lets the tokens of unloaded classes retire, by what its engines still hold. */
class AgentSessionTest {
    @Test
    void tokensRetireOnceTheEnginesHaveWrittenAndNeverLaterThanTheGrace() {
        long now = 100_000_000_000L;
        assertEquals(now - AgentSession.IN_FLIGHT_NANOS, AgentSession.retireBefore(now, EventEngine.IDLE, false),
                "no engine holds anything: what unloaded before now less the margin for a stack in flight");
        long behind = now - 1_000_000_000L;
        assertEquals(behind - AgentSession.IN_FLIGHT_NANOS, AgentSession.retireBefore(now, behind, false),
                "an engine a second behind holds back what unloaded since it began");
        assertEquals(now - AgentSession.TOKEN_GRACE_NANOS, AgentSession.retireBefore(now, now - 60_000_000_000L, false),
                "a stalled engine holds them for the grace at most");
        assertEquals(now - 10_000_000_000L, AgentSession.retireBefore(now, EventEngine.IDLE, true),
                "calls kept with their stacks wait for tracing's next write");
    }
}
