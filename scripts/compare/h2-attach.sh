#!/usr/bin/env bash
# Broad timing attached to a database under load, against the same database untraced, side by
# side: two example.real.H2Load processes (one JDBC client each, 45 s) start together; 5 s in,
# `tiprobe start --trace 'org.h2.**' --mode time` attaches to the second (with "aa", nothing does:
# the machine's own noise between two equal processes; with "plain", a plain Java agent, not
# tiprobe, retransforms the second's loaded org.h2 classes unchanged, Retransform.java: what any
# tracer that instruments them by a retransform pays, before its probes cost anything). Prints
# the ops per second of each over the 30 s from the attach, and their ratio, treated / control.
# The second JVM is the treated one; TREATED=a makes it the first, so that pairs run both ways
# cancel what starting second does to a JVM. One pair a call; run pairs one after another.
#
# Needs the image (./mvnw25 -pl jlink -am package -DskipTests), the test classes and H2 in the
# local Maven repository (both come with the jlink module's test build).
# Usage: [TREATED=a|b] scripts/compare/h2-attach.sh [traced|aa|plain] [tiprobe]   (another image's bin/tiprobe to compare)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$root/scripts/jdk25.sh"
mode=${1:-traced}
case "$mode" in
    traced|aa|plain) ;;
    *) echo "the mode is traced, aa or plain, not '$mode'" >&2; exit 2 ;;
esac
tiprobe=${2:-$root/jlink/target/tiprobe/bin/tiprobe}
treated_name=${TREATED:-b}
case "$treated_name" in
    a) control_name=b ;;
    b) control_name=a ;;
    *) echo "TREATED is a or b, not '$treated_name'" >&2; exit 2 ;;
esac
h2=$(ls "$HOME"/.m2/repository/com/h2database/h2/*/h2-*.jar | tail -1)
cp="$root/jlink/target/test-classes:$h2"
out=$(mktemp -d)
mkdir -p "$out/a" "$out/b"
[ "$mode" != plain ] || "$here/retransform-agent.sh" "$out/agent"
flags=(${EXTRA_FLAGS:-} -XX:+EnableDynamicAgentLoading --enable-native-access=ALL-UNNAMED -cp "$cp" example.real.H2Load)
"$JAVA_HOME/bin/java" "${flags[@]}" "$out/a" 1 45 > "$out/a.out" 2>&1 &
a=$!
"$JAVA_HOME/bin/java" "${flags[@]}" "$out/b" 1 45 > "$out/b.out" 2>&1 &
b=$!
trap 'kill $a $b 2>/dev/null || true' EXIT  # twins left running would skew whatever runs next
if [ "$treated_name" = a ]; then treated=$a; else treated=$b; fi
sleep 5
at=$(grep '^at ' "$out/$treated_name.out" | tail -1 | cut -d' ' -f2)
if [ "$mode" = traced ]; then
    "$tiprobe" start --trace 'org.h2.**' --mode time -f "$out/r.json" "$treated" > "$out/start.txt" 2>&1
elif [ "$mode" = plain ]; then
    "$JAVA_HOME/bin/jcmd" "$treated" VM.classes | awk '$NF ~ /^org\.h2\./ {print $NF}' > "$out/classes.txt"
    "$JAVA_HOME/bin/java" -cp "$out/agent" Retransform "$treated" "$out/agent/retransform.jar" "$out/classes.txt"
fi
sleep 31
[ "$mode" != traced ] || "$tiprobe" stop "$treated" > "$out/stop.txt" 2>&1 || true
wait "$a" "$b"
trap - EXIT  # both reaped: their pids may be another's by now
python3 - "$out" "$at" "$treated_name" "$control_name" <<'PY'
import sys
out, at, treated, control = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
def rate(f):
    points = [(int(l.split()[1]), int(l.split()[3])) for l in open(f) if l.startswith('at ')]
    near = lambda t: min(points, key=lambda p: abs(p[0] - t))
    first, last = near(at), near(at + 30000)
    return (last[1] - first[1]) * 1000.0 / (last[0] - first[0])
c, t = rate(out + '/' + control + '.out'), rate(out + '/' + treated + '.out')
print("attach to %s at %d ms: control %.0f ops/s, treated %.0f ops/s, ratio %.3f (files in %s)" % (treated, at, c, t, t / c, out))
PY
