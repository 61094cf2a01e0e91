#!/usr/bin/env bash
# The agent's footprint in the application's heap, measured beside the application alone.
#
# Starts the same Java program twice, attaches tiprobe (with the flags given) to the second, and
# every <every> seconds runs full GCs in both and prints the bytes of live objects after them (a
# class histogram's total), the difference, both resident sets as /proc sees them, and the last
# progress line each program printed (ScriptChurn: "scripts <n>"; the heaps compare only at equal
# work, so give it a rate both keep up with). At the end: tiprobe stop, and both programs' last
# lines (the same checksum means tiprobe changed nothing). With STATUS=1 in the environment, also
# tiprobe's status after each look: tracing's slots, the ID map's size, the agent's own estimate.
#
#   scripts/soak/heap-beside.sh <seconds> <every> '<tiprobe start flags>' -- java -Xmx512m -cp … Main args
#
# Example (the Groovy churn program of jlink's tests, 12 scripts a second, every engine on, 10 minutes):
#   scripts/soak/heap-beside.sh 600 60 "--sample 10ms --alloc 512k --lock 1ms --trace 'Script*::*;Order*::*' --mode time" \
#     -- java -Xmx512m -cp jlink/target/test-classes:$GROOVY example.real.ScriptChurn 700 12
set -euo pipefail
seconds=$1 every=$2 flags=$3
shift 3
[ "$1" = "--" ] && shift
here=$(cd "$(dirname "$0")/../.." && pwd)
tiprobe=${TIPROBE:-$here/jlink/target/tiprobe/bin/tiprobe}
jcmd=${JCMD:-$(dirname "$(readlink -f "$(command -v "$1")")")/jcmd}
out=$(mktemp -d)

"$@" >"$out/alone.log" 2>&1 &
alone=$!
"$@" >"$out/profiled.log" 2>&1 &
profiled=$!
trap 'kill $alone $profiled 2>/dev/null || true' EXIT
until grep -q ready "$out/alone.log" && grep -q ready "$out/profiled.log"; do sleep 0.2; done
eval "$tiprobe start $flags -f $out/profiled.json $profiled"

# Two full GCs a second and a half apart: the first unloads classes, and what the agent releases
# once it learns of that (within a second) is garbage for the second, which the class histogram
# makes. Its total counts objects only, not the regions' slack that GC.heap_info's "used" adds,
# less the filler arrays G1 lays over dead space (jdk.internal.vm.Filler*), which nothing holds.
used_after_gc() {
    "$jcmd" "$1" GC.run >/dev/null
    sleep 1.5
    "$jcmd" "$1" GC.class_histogram | awk '/jdk\.internal\.vm\.Filler/ { f += $3 } /^Total/ { t = $3 } END { print int((t - f) / 1048576) }'
}
rss() { awk '/VmRSS/ { print int($2 / 1024) }' "/proc/$1/status"; }

progress() { grep -v '^done' "$1" | tail -n 1 | tr -d '\n'; }
printf '%6s %10s %12s %8s %10s %12s  %s\n' seconds alone_MB profiled_MB diff_MB alone_rss profiled_rss 'alone | profiled progress' 
start=$SECONDS
while [ $((SECONDS - start)) -lt "$seconds" ]; do
    sleep "$every"
    a=$(used_after_gc $alone) p=$(used_after_gc $profiled)
    printf '%6d %10d %12d %8d %10d %12d  %s | %s\n' $((SECONDS - start)) "$a" "$p" $((p - a)) "$(rss $alone)" "$(rss $profiled)" \
        "$(progress "$out/alone.log")" "$(progress "$out/profiled.log")"
    # STATUS=1: what the agent says of itself at each look (its ID map, slots and estimate).
    if [ -n "${STATUS:-}" ]; then "$tiprobe" status "$profiled" | sed 's/^running: .*methods (/  slots: (/; s/, [0-9]* calls so far;.*so far; / /' || true; fi
done
"$tiprobe" status "$profiled" || true
"$tiprobe" stop "$profiled" && ls -l "$out"/profiled.*
wait $alone $profiled || true
tail -n 1 "$out/alone.log" "$out/profiled.log"
