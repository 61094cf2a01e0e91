#!/usr/bin/env bash
# What recompiling the hottest code costs a program under load, attached late: example.real.H2Load
# (two JDBC clients), or with PROGRAM=jetty example.real.JettyLoad (a Jetty server and four HTTP
# clients over loopback), runs 40 s; at second 15 `tiprobe collect -d 12s --sample 10ms --sample-mode cpu`
# attaches, with the flags given after the output directory (none: recompiling, the default;
# --no-recompile: not). Prints the program's operations per second before the attach (seconds
# 7-13), over the session's first seconds (16-27) and after it (31-38), the JVM's safepoint time
# in the session (-Xlog:safepoint), and the CPU of its JIT compiler threads in the session (/proc).
# Run it once with each flag, one after the other, and compare.
#
# Needs the image, the test classes and tiprobe's modules in the local repository
# (./mvnw25 -q -o install -DskipTests), and H2's and Jetty's jars as the tests use them.
# Usage: scripts/compare/recompile-cost.sh <out dir> [tiprobe flags...]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/scripts/jdk25.sh"
out=$1
shift
mkdir -p "$out"
rm -rf "$out/db"
case "${PROGRAM:-h2}" in
    h2) program=(example.real.H2Load "$out/db" 2 40) ;;
    jetty) program=(example.real.JettyLoad "$out/db" 4 40) ;;
    *) echo "PROGRAM is h2 or jetty, not '$PROGRAM'" >&2; exit 2 ;;
esac
# The test classes and the H2 and Jetty the tests use; none of tiprobe's jars, which would put an
# older agent on the program's class path, where an attached agent is looked for first.
if ! "$root/mvnw25" -q -B -ntp -o -f "$root/pom.xml" -pl jlink dependency:build-classpath -Dmdep.includeScope=test \
        -DexcludeGroupIds=dev.tiprobe -Dmdep.outputFile="$out/classpath.txt" > "$out/classpath.log" 2>&1; then
    echo "could not list the test class path (see $out/classpath.log)" >&2
    exit 1
fi
classpath="$root/jlink/target/test-classes:$(cat "$out/classpath.txt")"
mkdir -p "$out/db"
"$JAVA_HOME/bin/java" -XX:+EnableDynamicAgentLoading -Xlog:safepoint:file="$out/safepoints.log":uptimemillis \
    -cp "$classpath" "${program[@]}" > "$out/program.out" 2>&1 &
pid=$!
jit_cpu() {  # clock ticks of the JVM's compiler threads so far
    local sum=0 t
    for t in /proc/$pid/task/*; do
        if grep -q 'CompilerThre' "$t/comm" 2>/dev/null; then
            sum=$((sum + $(awk '{print $14 + $15}' "$t/stat")))
        fi
    done
    echo "$sum"
}
sleep 15
jit_before=$(jit_cpu)
"$root/jlink/target/tiprobe/bin/tiprobe" collect -d 12s --sample 10ms --sample-mode cpu "$@" -f "$out/r.tpr" "$pid" > "$out/collect.log" 2>&1
jit_after=$(jit_cpu)
wait "$pid" || true
ticks=$(getconf CLK_TCK)
python3 - "$out" "$jit_before" "$jit_after" "$ticks" <<'PY'
import re, sys
out, before, after, ticks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
points = [(int(l.split()[1]), int(l.split()[3])) for l in open(out + "/program.out") if l.startswith("at ")]
def rate(a, b):
    near = lambda t: min(points, key=lambda p: abs(p[0] - t * 1000))
    (t0, n0), (t1, n1) = near(a), near(b)
    return (n1 - n0) * 1000.0 / (t1 - t0)
spent = 0.0
for l in open(out + "/safepoints.log"):
    m = re.match(r"\[(\d+)ms\].*Total: (\d+) ns", l)
    if m and 15000 <= int(m.group(1)) <= 28000: spent += int(m.group(2)) / 1e6
print("ops/s before %.0f, in the session %.0f, after %.0f; safepoints in the session %.1f ms; JIT threads' CPU in the session %.0f ms"
      % (rate(7, 13), rate(16, 27), rate(31, 38), spent, (after - before) * 1000.0 / ticks))
PY
