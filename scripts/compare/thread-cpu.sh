#!/usr/bin/env bash
# What a profiler's threads take from a program that keeps both cores busy: runs bench.target.Spin
# for 60 s with the JVM options given, loads async-profiler (cpu, 1 ms, per thread) at 40 s for 15 s,
# when the JIT has long compiled the profiler's own code, and prints each thread's CPU milliseconds
# in that window, threads of one name summed.
#
# Needs the jmh build (./mvnw25 -pl jmh -am package -DskipTests: the benchmarks jar and
# async-profiler's library) and, for tiprobe rows, the agent jar it builds.
# Usage: scripts/compare/thread-cpu.sh <out.collapsed> [JVM options...]
# e.g.   scripts/compare/thread-cpu.sh /tmp/cpu.collapsed --enable-native-access=ALL-UNNAMED \
#            -javaagent:modules/agent/target/tiprobe-agent.jar=file=/tmp/s-%p.json,interval=10ms,samplemode=cpu
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/scripts/jdk25.sh"
out=$1
shift
lib="$root/jmh/target/async-profiler/linux-x64/libasyncProfiler.so"
cd "$root"
"$JAVA_HOME/bin/java" -XX:+EnableDynamicAgentLoading "$@" -cp jmh/target/benchmarks.jar bench.target.Spin 60 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
sleep 40
"$JAVA_HOME/bin/jcmd" "$pid" JVMTI.agent_load "$lib" '"start,event=cpu,interval=1ms,threads"' > /dev/null
sleep 15
"$JAVA_HOME/bin/jcmd" "$pid" JVMTI.agent_load "$lib" "\"stop,file=$out,collapsed\"" > /dev/null
wait "$pid"
# async-profiler counts one sample a millisecond of CPU; the first frame names the thread
awk '{ n = $NF; split($0, f, ";"); sub(/ tid=.*/, "", f[1]); sub(/^\[/, "", f[1]); ms[f[1]] += n }
     END { for (t in ms) printf "%7d ms  %s\n", ms[t], t }' "$out" | sort -rn
