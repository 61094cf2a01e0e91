#!/usr/bin/env bash
# Broad timing attached to a database under load, against the same database untraced, side by
# side: two example.real.H2Load processes (one JDBC client each, 45 s) start together; 5 s in,
# `tiprobe start --trace 'org.h2.**' --mode time` attaches to the second (with "aa", nothing does:
# the machine's own noise between two equal processes). Prints the ops per second of each over
# the 30 s from the attach, and their ratio. One pair a call; run pairs one after another.
#
# Needs the image (./mvnw25 -pl jlink -am package -DskipTests), the test classes and H2 in the
# local Maven repository (both come with the jlink module's test build).
# Usage: scripts/compare/h2-attach.sh [aa] [tiprobe]   (another image's bin/tiprobe to compare)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$root/scripts/jdk25.sh"
mode=${1:-traced}
tiprobe=${2:-$root/jlink/target/tiprobe/bin/tiprobe}
h2=$(ls "$HOME"/.m2/repository/com/h2database/h2/*/h2-*.jar | tail -1)
cp="$root/jlink/target/test-classes:$h2"
out=$(mktemp -d)
mkdir -p "$out/a" "$out/b"
flags=(${EXTRA_FLAGS:-} -XX:+EnableDynamicAgentLoading --enable-native-access=ALL-UNNAMED -cp "$cp" example.real.H2Load)
"$JAVA_HOME/bin/java" "${flags[@]}" "$out/a" 1 45 > "$out/a.out" 2>&1 &
a=$!
"$JAVA_HOME/bin/java" "${flags[@]}" "$out/b" 1 45 > "$out/b.out" 2>&1 &
b=$!
sleep 5
at=$(grep '^at ' "$out/b.out" | tail -1 | cut -d' ' -f2)
[ "$mode" = aa ] || "$tiprobe" start --trace 'org.h2.**' --mode time -f "$out/r.json" "$b" > "$out/start.txt" 2>&1
sleep 31
[ "$mode" = aa ] || "$tiprobe" stop "$b" > "$out/stop.txt" 2>&1 || true
wait "$a" "$b"
python3 - "$out" "$at" <<'PY'
import sys
out, at = sys.argv[1], int(sys.argv[2])
def rate(f):
    points = [(int(l.split()[1]), int(l.split()[3])) for l in open(f) if l.startswith('at ')]
    near = lambda t: min(points, key=lambda p: abs(p[0] - t))
    first, last = near(at), near(at + 30000)
    return (last[1] - first[1]) * 1000.0 / (last[0] - first[0])
a, b = rate(out + '/a.out'), rate(out + '/b.out')
print("attach at %d ms: untraced %.0f ops/s, traced %.0f ops/s, ratio %.3f (files in %s)" % (at, a, b, b / a, out))
PY
