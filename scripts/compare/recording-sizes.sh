#!/usr/bin/env bash
# Recording sizes over one window, three recorders in one JVM: starts the java command given,
# waits, then starts tiprobe (the flags given after the window, default: wall samples every
# 10 ms, allocations every 512 KiB, waits of 1 ms), async-profiler with the same events
# (wall 10 ms, alloc 512k, lock 1ms, into a .jfr) and JFR's profile settings; stops all three
# after the window and prints the three files' sizes.
#
# Needs the image (./mvnw25 -pl jlink -am package -DskipTests) and async-profiler's library
# (./mvnw25 -pl jmh -am package -DskipTests unpacks it from Maven Central into jmh/target).
# Usage: scripts/compare/recording-sizes.sh <warm-up seconds> <window seconds> <out dir> [tiprobe flags] -- java <args>
# Example (the Groovy churn program of jlink's tests):
#   scripts/compare/recording-sizes.sh 4 60 /tmp/sizes -- java -Xmx512m -cp jlink/target/test-classes:$GROOVY example.real.ScriptChurn 600
warm=$1 window=$2 out=$3
shift 3
flags=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do flags+=("$1"); shift; done
[ ${#flags[@]} -eq 0 ] && flags=(--sample 10ms --alloc 512k --lock 1ms)
[ "${1:-}" = "--" ] && shift
here=$(cd "$(dirname "$0")" && pwd)
. "$here/window.sh" "$warm" "$window" "$out" --
"$@" > "$out/target.out" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
sleep "$warm"
# tiprobe first: JVMTI grants allocation sampling to one agent attached late, and async-profiler
# has a way of its own without it.
"$tiprobe" start "${flags[@]}" -f "$out/tiprobe.tpr" "$pid" >/dev/null
"$jcmd" "$pid" JVMTI.agent_load "$lib" "\"start,event=wall,interval=10ms,alloc=512k,lock=1ms,file=$out/async-profiler.jfr\"" >/dev/null
"$jcmd" "$pid" JFR.start name=peer settings=profile filename="$out/jfr.jfr" >/dev/null
sleep "$window"
"$jcmd" "$pid" JFR.stop name=peer >/dev/null
"$jcmd" "$pid" JVMTI.agent_load "$lib" '"stop"' >/dev/null
"$tiprobe" stop "$pid" | tail -1
ls -l "$out/tiprobe.tpr" "$out/async-profiler.jfr" "$out/jfr.jfr" | awk '{ printf "%12d bytes  %s\n", $5, $NF }'
