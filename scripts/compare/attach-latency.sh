#!/usr/bin/env bash
# How long a short profile of a running JVM takes, first attach included: for each of ROUNDS fresh
# JVMs (the java command given, warmed up for <warm-up> seconds), `tiprobe -d <window> <pid>` from
# its start to its first "started" line and to its exit; then, on another fresh JVM, async-profiler
# started through jcmd, <window> seconds, and stopped through jcmd (its own start and stop included).
# Prints one line per run: tool, seconds to started (tiprobe), seconds to exit, samples.
#
# Needs the image and async-profiler's library, as one-window.sh does.
# Usage: [ROUNDS=3] scripts/compare/attach-latency.sh <warm-up seconds> <window seconds> <out dir> -- java <args>
here=$(cd "$(dirname "$0")" && pwd)
. "$here/window.sh"
rounds=${ROUNDS:-3}
now() { date +%s.%N; }
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null' EXIT  # a target left running would skew whatever runs next
for round in $(seq "$rounds"); do
  "$@" > "$out/tiprobe-$round.out" 2>&1 &
  pid=$!
  sleep "$warm"
  : > "$out/tiprobe-$round.times"
  begin=$(now)
  "$tiprobe" -d "$window" "$pid" 2> >(while IFS= read -r line; do
      [[ $line == *"started:"* ]] && echo "started $(echo "$(now) - $begin" | bc)" >> "$out/tiprobe-$round.times"
    done) > "$out/tiprobe-$round.txt"
  end=$(echo "$(now) - $begin" | bc)
  sleep 0.2  # the stderr reader's last line
  samples=$(sed -n 's/^tiprobe recording: \([0-9]*\) samples.*/\1/p' "$out/tiprobe-$round.txt")
  printf 'tiprobe   started %5.2f s  exit %5.2f s  %s samples\n' "$(sed -n '1s/^started //p' "$out/tiprobe-$round.times")" "$end" "$samples"
  kill "$pid"; wait "$pid" 2>/dev/null || true

  "$@" > "$out/asprof-$round.out" 2>&1 &
  pid=$!
  sleep "$warm"
  begin=$(now)
  "$jcmd" "$pid" JVMTI.agent_load "$lib" '"start,event=cpu,interval=10ms"' > /dev/null
  sleep "$window"
  "$jcmd" "$pid" JVMTI.agent_load "$lib" "\"stop,file=$out/asprof-$round.collapsed,collapsed\"" > /dev/null
  end=$(echo "$(now) - $begin" | bc)
  samples=$(awk '{s += $NF} END {print s}' "$out/asprof-$round.collapsed")
  printf 'asprof    started     -    exit %5.2f s  %s samples\n' "$end" "$samples"
  kill "$pid"; wait "$pid" 2>/dev/null || true
done
