#!/usr/bin/env bash
# Attached late, recompiling (the default) and not, against the truth: three runs of the java command
# given, one after another. The truth: a JVM started with DebugNonSafepoints (every compiled
# instruction names its inlined method), async-profiler (cpu, 10 ms) loaded after <warm-up>
# seconds for <window> seconds. Then `tiprobe collect --sample 10ms --sample-mode cpu --no-recompile`
# attached after the same warm-up to a JVM without the flag, for the same window; then the same
# recompiling (no flag), for four seconds more, of which the window after those four seconds is
# kept (the recompilation happens after about two seconds of samples). Prints each tiprobe profile's
# self-time distance to the truth (ProfileDistance.java).
#
# Last, beside the truth in one JVM: a JVM with async-profiler loaded from its start (which has HotSpot
# keep every compiled instruction's inlined method, as the flag does), tiprobe recompiling attached
# after the warm-up, and async-profiler sampling the window tiprobe keeps. Prints tiprobe's distance to
# that profile, and that profile's distance to the first truth: how far recompiling moved the
# program's own profile (the JIT compiles it again with the profile it has now, not the one it had).
#
# Needs the image and async-profiler's library, as one-window.sh does.
# Usage: scripts/compare/late-attach.sh <warm-up seconds> <window seconds> <out dir> -- java <args>
here=$(cd "$(dirname "$0")" && pwd)
. "$here/window.sh"
java=$1
shift

"$java" -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints "$@" > "$out/truth.out" 2>&1 &
pid=$!
sleep "$warm"
"$jcmd" "$pid" JVMTI.agent_load "$lib" '"start,event=cpu,interval=10ms"' > /dev/null
sleep "$window"
"$jcmd" "$pid" JVMTI.agent_load "$lib" "\"stop,file=$out/truth.collapsed,collapsed\"" > /dev/null
kill "$pid"; wait "$pid" 2>/dev/null || true

"$java" "$@" > "$out/plain.out" 2>&1 &
pid=$!
sleep "$warm"
"$tiprobe" collect -d "${window}s" --sample 10ms --sample-mode cpu --no-recompile -f "$out/plain.collapsed" "$pid" > "$out/plain.log" 2>&1
kill "$pid"; wait "$pid" 2>/dev/null || true

"$java" "$@" > "$out/recompiled.out" 2>&1 &
pid=$!
sleep "$warm"
"$tiprobe" collect -d "$((window + 4))s" --sample 10ms --sample-mode cpu -f "$out/recompile.collapsed" "$pid" \
  > "$out/recompiled.log" 2>&1
kill "$pid"; wait "$pid" 2>/dev/null || true
"$tiprobe" report "$out/recompile.collapsed.tpr" --from 4 -f "$out/recompiled.collapsed" > /dev/null
"$tiprobe" report "$out/recompile.collapsed.tpr" -f - | grep -- 'compile the hottest' || true

"$JAVA_HOME/bin/java" "$here/ProfileDistance.java" "$out/truth.collapsed" "$out/plain.collapsed" "$out/recompiled.collapsed"

"$java" "-agentpath:$lib" "$@" > "$out/beside.out" 2>&1 &
pid=$!
sleep "$warm"
"$tiprobe" collect -d "$((window + 4))s" --sample 10ms --sample-mode cpu -f "$out/beside-all.collapsed" "$pid" \
  > "$out/beside.log" 2>&1 &
session=$!
until grep -q 'started:' "$out/beside.log" 2>/dev/null || ! kill -0 "$session" 2>/dev/null; do sleep 0.05; done
sleep 4
# signal=40: JFR's CPU-time sampler, which tiprobe reads, needs SIGPROF (one-window.sh)
"$jcmd" "$pid" JVMTI.agent_load "$lib" '"start,event=cpu,interval=10ms,signal=40"' > /dev/null
sleep "$window"
"$jcmd" "$pid" JVMTI.agent_load "$lib" "\"stop,file=$out/beside-truth.collapsed,collapsed\"" > /dev/null
wait "$session" || true
kill "$pid"; wait "$pid" 2>/dev/null || true
"$tiprobe" report "$out/beside-all.collapsed.tpr" --from 4 -f "$out/beside.collapsed" > /dev/null
"$JAVA_HOME/bin/java" "$here/ProfileDistance.java" "$out/beside-truth.collapsed" "$out/beside.collapsed" "$out/truth.collapsed"
