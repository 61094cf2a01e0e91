#!/usr/bin/env bash
# Whether a session leaves a running loop slower for good: example.real.JsonWorker (a worker loop
# that only calls, a 3 µs Jackson round trip a turn) in two JVMs side by side, one attached to at
# second 20 and one left alone. The session is `recompile` (`collect -d 10s --sample 10ms
# --sample-mode cpu`, recompiling by default), `sample` (the same with `--no-recompile`), `trace` (`collect -d 8s --trace
# 'example.real.JsonWorker::total' --mode time`), `none` (no session: the A/A noise) or `plain:<file>`, where a
# plain Java agent, not tiprobe, retransforms the classes the file names at second 22 (Retransform.java: what
# a recompile does to the program, without tiprobe; a recompiling run's treated.redefined.log names the classes it
# changed). Prints the treated worker's turns per second of
# its own CPU against the control's over seconds 10-19 (before) and 40-69 (after), and whether the
# loop's class was changed (-Xlog:redefine+class+load). A ratio after below the one before by more
# than the A/A noise (a few percent between two JVMs) is a loop left interpreted, or code compiled
# again slower. With PROGRAM=h2 the twins are example.real.H2Load (two JDBC clients each), traced
# as `--trace 'org.h2.**' --mode time`, and the figure is ops per second of the clients' CPU.
#
# Needs the image and the test classes (./mvnw25 -q install -DskipTests, then
# ./mvnw25 -q -pl jlink -am package -DskipTests: online once, for Jackson's jars).
# Usage: scripts/compare/stranding.sh <out dir> recompile|sample|trace|none|plain:<classes file>
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/scripts/jdk25.sh"
out=${1:?usage: stranding.sh <out dir> recompile|sample|trace|none|plain:<classes file>}
session=${2:?usage: stranding.sh <out dir> recompile|sample|trace|none|plain:<classes file>}
case "${PROGRAM:-json}" in
    json) traced='example.real.JsonWorker::total' ;;
    h2) traced='org.h2.**' ;;
    *) echo "PROGRAM is json or h2, not '$PROGRAM'" >&2; exit 2 ;;
esac
case "$session" in
    recompile) flags=(-d 10s --sample 10ms --sample-mode cpu) ;;
    sample) flags=(-d 10s --sample 10ms --sample-mode cpu --no-recompile) ;;
    trace) flags=(-d 8s --trace "$traced" --mode time) ;;
    none|plain:?*) flags=() ;;
    *) echo "the session is recompile, sample, trace, none or plain:<classes file>, not '$session'" >&2; exit 2 ;;
esac
mkdir -p "$out"
if [[ $session == plain:* ]]; then
    classes=$(realpath -e "${session#plain:}") || { echo "no classes file: ${session#plain:}" >&2; exit 2; }
    "$root/scripts/compare/retransform-agent.sh" "$out/agent"
fi
if ! "$root/mvnw25" -q -B -ntp -o -f "$root/pom.xml" -pl jlink dependency:build-classpath -Dmdep.includeScope=test \
        -DexcludeGroupIds=dev.tiprobe -Dmdep.outputFile="$out/classpath.txt" > "$out/classpath.log" 2>&1; then
    echo "could not list the test class path (see $out/classpath.log)" >&2
    exit 1
fi
classpath="$root/jlink/target/test-classes:$(cat "$out/classpath.txt")"
start() {  # $1: name
    local program=(example.real.JsonWorker 75)
    if [ "${PROGRAM:-json}" = h2 ]; then
        rm -rf "$out/$1.db"
        mkdir -p "$out/$1.db"
        program=(example.real.H2Load "$out/$1.db" 2 75)
    fi
    "$JAVA_HOME/bin/java" -XX:+EnableDynamicAgentLoading --enable-native-access=ALL-UNNAMED \
        -Xlog:redefine+class+load=info:file="$out/$1.redefined.log" -cp "$classpath" "${program[@]}" > "$out/$1.out" 2>&1 &
}
treated=
control=
trap 'kill $treated $control 2>/dev/null || true' EXIT  # twins left running would skew whatever runs next
start treated
treated=$!
start control
control=$!
sleep 20
if [ "$session" = none ]; then
    sleep 10
elif [[ $session == plain:* ]]; then
    sleep 2
    "$JAVA_HOME/bin/java" -cp "$out/agent" Retransform "$treated" "$out/agent/retransform.jar" "$classes"
    sleep 8
else
    "$root/jlink/target/tiprobe/bin/tiprobe" collect "${flags[@]}" -f "$out/session.txt" "$treated" > "$out/session.log" 2>&1
fi
wait "$treated" "$control" || true
python3 - "$out" "${PROGRAM:-json}" <<'PY'
import statistics, sys
out, program = sys.argv[1], sys.argv[2]
def lines(name, first):
    return [l.split() for l in open(f"{out}/{name}.out") if l.startswith(first + " ")]
def rate(name, a, b):  # H2: ops a CPU second over seconds a to b; the worker: its turns a CPU second, by second
    if program == "h2":  # "at <ms> ops <n> wall <ms> cpu <ms> clients <ms>": ops a second of the clients' CPU
        points = [(int(f[1]), int(f[3]), int(f[9])) for f in lines(name, "at")]
        if not points or points[-1][0] < b * 1000 - 1000:
            sys.exit(f"{out}/{name}.out does not reach second {b}")
        near = lambda s: min(points, key=lambda p: abs(p[0] - s * 1000))
        (_, n0, c0), (_, n1, c1) = near(a), near(b)
        return (n1 - n0) * 1000.0 / max(1, c1 - c0)
    return {int(f[1]): float(f[2]) for f in lines(name, "second")}
def ratio(a, b):
    if program == "h2":
        return rate("treated", a, b) / rate("control", a, b)
    t, c = rate("treated", a, b), rate("control", a, b)  # second by second, the twins side by side
    seconds = [s for s in range(a, b + 1) if s in t and s in c]
    if not seconds:
        sys.exit(f"no seconds {a}-{b} in both programs' output ({out}/treated.out, {out}/control.out)")
    return statistics.median(t[s] / c[s] for s in seconds)
owner = "name=org.h2." if program == "h2" else "name=example.real.JsonWorker,"
changed = sum(owner in l for l in open(f"{out}/treated.redefined.log"))
print("treated against control, %s: before %.3f, after %.3f; %s"
      % ("ops a second of the clients' CPU" if program == "h2" else "turns a CPU second", ratio(10, 19), ratio(40, 69),
         f"{changed} of its classes changed" if program == "h2" else "the loop's class " + ("changed" if changed else "unchanged")))
PY
grep -o "Left as compiled: [^)]*)\|left unchanged, so[^;]*" "$out/session.txt" "$out/session.log" 2>/dev/null | head -2 || true
