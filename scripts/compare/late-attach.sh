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
