#!/usr/bin/env bash
# What a profiler takes from a program that keeps both cores busy, without a profiler to measure
# it: runs bench.target.Spin 60 (two busy threads, and PARKED parked ones) with the JVM options
# given, reads every thread's CPU time from /proc at 30 s and at 55 s, and prints one line:
#   other    the CPU the JVM's other threads used in that window, as a share of both cores
#            (0 with no profiler: what a profiler's threads, and the JIT compiling its code, take)
#   ops      the work done in the whole run (60 s, start-up included)
#   ops/cpu  work per millisecond of the busy threads' own CPU (what a profiler costs inside them:
#            signal handlers, stops at safepoints)
# then the largest other threads. On a noisy machine these move less than throughput does: a
# neighbour slows the program, not the share its own threads take.
#
# Needs the jmh build (./mvnw25 -pl jmh -am package -DskipTests) and python3.
# Usage: [PARKED=500] [LABEL=name] scripts/compare/spin-cost.sh [JVM options...]
# e.g.   PARKED=500 scripts/compare/spin-cost.sh --enable-native-access=ALL-UNNAMED \
#            -javaagent:modules/agent/target/tiprobe-agent.jar=file=/tmp/s-%p.json,interval=10ms,samplemode=wall
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/scripts/jdk25.sh"
cd "$root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
snapshot() {  # tid|name|CPU ticks (utime + stime) of every thread of $1
    python3 - "$1" <<'PY'
import os, sys
pid = sys.argv[1]
for tid in os.listdir(f'/proc/{pid}/task'):
    try:
        name = open(f'/proc/{pid}/task/{tid}/comm').read().strip()
        stat = open(f'/proc/{pid}/task/{tid}/stat').read()
    except OSError:
        continue
    f = stat[stat.rindex(')') + 2:].split()
    print(f"{tid}|{name}|{int(f[11]) + int(f[12])}")
PY
}
"$JAVA_HOME/bin/java" -XX:+EnableDynamicAgentLoading "$@" -cp jmh/target/benchmarks.jar bench.target.Spin 60 "${PARKED:-0}" > "$work/out" 2>&1 &
pid=$!
sleep 30
snapshot "$pid" > "$work/at30"
sleep 25
snapshot "$pid" > "$work/at55"
wait "$pid"
python3 - "${LABEL:-run}" "$work" "$(getconf CLK_TCK)" <<'PY'
import collections, re, sys
label, work, hz = sys.argv[1], sys.argv[2], int(sys.argv[3])
def read(f):
    return {t: (n, int(c)) for t, n, c in (l.rstrip('\n').split('|') for l in open(f))}
before, after = read(f'{work}/at30'), read(f'{work}/at55')
ms = collections.Counter()
for tid, (name, ticks) in after.items():
    ms[re.sub(r'\d+$', '#', name)] += (ticks - before.get(tid, (name, 0))[1]) * 1000 // hz
busy = ms.pop('spin-#', 0)
m = re.search(r'ops (\d+) cpu-ms (\d+)', open(f'{work}/out').read())
ops, cpu = int(m.group(1)), int(m.group(2))
top = ', '.join(f'{n} {v}' for n, v in ms.most_common(6) if v)
print(f'{label:14s} other {sum(ms.values()) / 500:5.2f} %  ops {ops / 1e6:7.1f}M  ops/cpu-ms {ops / cpu:7.1f}  | {top}')
PY
