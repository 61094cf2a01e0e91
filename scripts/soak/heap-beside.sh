#!/usr/bin/env bash
# The agent's footprint in the application's heap, measured beside the application alone.
#
# Starts the same Java program twice, attaches tiprobe (with the flags given) to the second, and
# every <every> seconds runs a full GC in both and prints the heap used after it, the difference,
# and the agent's resident memory as /proc sees it. At the end: tiprobe stop, and both programs'
# last lines (the same checksum means tiprobe changed nothing).
#
#   scripts/soak/heap-beside.sh <seconds> <every> '<tiprobe start flags>' -- java -Xmx512m -cp … Main args
#
# Example (the Groovy churn program of jlink's tests, every engine on, 10 minutes):
#   scripts/soak/heap-beside.sh 600 30 "--sample 10ms --alloc 512k --lock 1ms --trace 'Script*::*;Order*::*' --mode time" \
#     -- java -Xmx512m -cp jlink/target/test-classes:$GROOVY example.real.ScriptChurn 630
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

# Two full GCs a second apart: the first unloads classes, and what the agent releases once it
# learns of that (within a second) is garbage for the second.
used_after_gc() {
    "$jcmd" "$1" GC.run >/dev/null
    sleep 1.5
    "$jcmd" "$1" GC.run >/dev/null
    "$jcmd" "$1" GC.heap_info | awk '/used/ { for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i + 1); sub(/K,?$/, "", v); print int(v / 1024); exit } }'
}
rss() { awk '/VmRSS/ { print int($2 / 1024) }' "/proc/$1/status"; }

printf '%6s %10s %12s %8s %10s %12s\n' seconds alone_MB profiled_MB diff_MB alone_rss profiled_rss
start=$SECONDS
while [ $((SECONDS - start)) -lt "$seconds" ]; do
    sleep "$every"
    a=$(used_after_gc $alone) p=$(used_after_gc $profiled)
    printf '%6d %10d %12d %8d %10d %12d\n' $((SECONDS - start)) "$a" "$p" $((p - a)) "$(rss $alone)" "$(rss $profiled)"
done
"$tiprobe" status "$profiled" || true
"$tiprobe" stop "$profiled" && ls -l "$out"/profiled.*
wait $alone $profiled || true
tail -n 1 "$out/alone.log" "$out/profiled.log"
