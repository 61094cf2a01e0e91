#!/usr/bin/env bash
# Whether a session leaves a running loop slower for good: example.real.JsonWorker (a worker loop
# that only calls, a 3 µs Jackson round trip a turn) in two JVMs side by side, one attached to at
# second 20 and one left alone. The session is `recompile` (`collect -d 10s --sample 10ms
# --sample-mode cpu`, recompiling by default), `sample` (the same with `--no-recompile`), `trace` (`collect -d 8s --trace
# 'example.real.JsonWorker::total' --mode time`) or `none` (no session: the A/A noise). Prints the treated worker's turns per second of
# its own CPU against the control's over seconds 10-19 (before) and 40-69 (after), and whether the
# loop's class was changed (-Xlog:redefine+class+load). A ratio after below the one before by more
# than the A/A noise (a few percent between two JVMs) is a loop left interpreted.
#
# Needs the image and the test classes (./mvnw25 -q install -DskipTests, then
# ./mvnw25 -q -pl jlink -am package -DskipTests: online once, for Jackson's jars).
# Usage: scripts/compare/stranding.sh <out dir> recompile|sample|trace|none
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/scripts/jdk25.sh"
out=${1:?usage: stranding.sh <out dir> recompile|sample|trace|none}
session=${2:?usage: stranding.sh <out dir> recompile|sample|trace|none}
case "$session" in
    recompile) flags=(-d 10s --sample 10ms --sample-mode cpu) ;;
    sample) flags=(-d 10s --sample 10ms --sample-mode cpu --no-recompile) ;;
    trace) flags=(-d 8s --trace 'example.real.JsonWorker::total' --mode time) ;;
    none) flags=() ;;
    *) echo "the session is recompile, sample, trace or none, not '$session'" >&2; exit 2 ;;
esac
mkdir -p "$out"
if ! "$root/mvnw25" -q -B -ntp -o -f "$root/pom.xml" -pl jlink dependency:build-classpath -Dmdep.includeScope=test \
        -DexcludeGroupIds=dev.tiprobe -Dmdep.outputFile="$out/classpath.txt" > "$out/classpath.log" 2>&1; then
    echo "could not list the test class path (see $out/classpath.log)" >&2
    exit 1
fi
classpath="$root/jlink/target/test-classes:$(cat "$out/classpath.txt")"
start() {  # $1: name
    "$JAVA_HOME/bin/java" -XX:+EnableDynamicAgentLoading --enable-native-access=ALL-UNNAMED \
        -Xlog:redefine+class+load=info:file="$out/$1.redefined.log" -cp "$classpath" example.real.JsonWorker 75 > "$out/$1.out" 2>&1 &
}
start treated
treated=$!
start control
control=$!
sleep 20
if [ "$session" = none ]; then
    sleep 10
else
    "$root/jlink/target/tiprobe/bin/tiprobe" collect "${flags[@]}" -f "$out/session.txt" "$treated" > "$out/session.log" 2>&1
fi
wait "$treated" "$control" || true
python3 - "$out" <<'PY'
import statistics, sys
out = sys.argv[1]
def rates(name):
    return {int(l.split()[1]): float(l.split()[2]) for l in open(f"{out}/{name}.out") if l.startswith("second ")}
t, c = rates("treated"), rates("control")
def ratio(a, b):
    seconds = [s for s in range(a, b + 1) if s in t and s in c]
    if not seconds:
        sys.exit(f"no seconds {a}-{b} in both programs' output ({out}/treated.out, {out}/control.out)")
    return statistics.median(t[s] / c[s] for s in seconds)
changed = any("name=example.real.JsonWorker," in l for l in open(f"{out}/treated.redefined.log"))
print("treated against control, turns a CPU second: before %.3f, after %.3f; the loop's class %s"
      % (ratio(10, 19), ratio(40, 69), "changed" if changed else "unchanged"))
PY
grep -o "Left as compiled: [^)]*)\|left unchanged, so[^;]*" "$out/session.txt" "$out/session.log" 2>/dev/null | head -2 || true
