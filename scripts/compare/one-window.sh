#!/usr/bin/env bash
# One profiling window, three profilers in one JVM: starts the java command given, waits, then
# loads async-profiler (cpu, 10 ms) and starts JFR's execution samples (10 ms) and
# `tiprobe collect -d <seconds> --sample 10ms --sample-mode cpu`, all at once; stops them together
# and prints each profile's self-time distance to async-profiler's (ProfileDistance.java).
# With MODE=wall: async-profiler's wall clock (10 ms) against tiprobe's wall view; JFR has no wall
# clock sampler and is left out (its execution samples see only threads running Java code).
#
# async-profiler is loaded with signal=40, not its default SIGPROF: JFR's CPU-time sampler, which
# tiprobe's cpu mode reads, needs SIGPROF and records nothing when another profiler holds it (tiprobe
# then falls back to JFR's execution samples and says so). AP_SIGNAL=27 compares against that fallback.
#
# Needs the image (./mvnw25 -pl jlink -am package -DskipTests) and async-profiler's library
# (./mvnw25 -pl jmh -am package -DskipTests unpacks it from Maven Central into jmh/target).
# Usage: [MODE=wall] scripts/compare/one-window.sh <warm-up seconds> <window seconds> <out dir> -- java <args>
here=$(cd "$(dirname "$0")" && pwd)
. "$here/window.sh"
"$@" > "$out/target.out" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
sleep "$warm"
cat > "$out/samples.jfc" <<'JFC'
<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0">
  <event name="jdk.ExecutionSample"><setting name="enabled">true</setting><setting name="period">10 ms</setting></event>
</configuration>
JFC
if [ "${MODE:-cpu}" = wall ]; then
    "$jcmd" "$pid" JVMTI.agent_load "$lib" '"start,event=wall,interval=10ms"' > /dev/null
    "$tiprobe" collect -d "${window}s" --sample 10ms --sample-mode wall -f "$out/tiprobe.collapsed" "$pid" > "$out/tiprobe.log" 2>&1
    "$jcmd" "$pid" JVMTI.agent_load "$lib" "\"stop,file=$out/async-profiler.collapsed,collapsed\"" > /dev/null
    "$JAVA_HOME/bin/java" "$here/ProfileDistance.java" "$out/async-profiler.collapsed" "$out/tiprobe.collapsed"
    exit
fi
"$jcmd" "$pid" JVMTI.agent_load "$lib" "\"start,event=cpu,interval=10ms,signal=${AP_SIGNAL:-40}\"" > /dev/null
"$jcmd" "$pid" JFR.start name=window settings="$out/samples.jfc" filename="$out/jfr.jfr" > /dev/null
"$tiprobe" collect -d "${window}s" --sample 10ms --sample-mode cpu -f "$out/tiprobe.collapsed" "$pid" > "$out/tiprobe.log" 2>&1
"$jcmd" "$pid" JVMTI.agent_load "$lib" "\"stop,file=$out/async-profiler.collapsed,collapsed\"" > /dev/null
"$jcmd" "$pid" JFR.stop name=window > /dev/null
"$JAVA_HOME/bin/jfr" print --events jdk.ExecutionSample --stack-depth 1 "$out/jfr.jfr" \
  | grep -A1 'stackTrace = \[' | grep -v 'stackTrace\|^--' | sed 's/(.*//; s/^ *//; s/$/ 1/' > "$out/jfr.collapsed"
"$JAVA_HOME/bin/java" "$here/ProfileDistance.java" "$out/async-profiler.collapsed" "$out/tiprobe.collapsed" "$out/jfr.collapsed"
