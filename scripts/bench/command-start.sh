#!/usr/bin/env bash
# How long a tiprobe command takes from its start to its exit, with the image's class-data
# sharing archive and without it: a copy of the image has its archive taken out, and the two run
# in turn, ROUNDS times each, `tiprobe --version` and a report of the golden recording to HTML.
# Prints each command's median in seconds, with and without the archive, and their ratio.
#
# Needs the image (./mvnw25 -pl jlink -am package -DskipTests).
# Usage: [ROUNDS=9] scripts/bench/command-start.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
image=$root/jlink/target/tiprobe
recording=$root/modules/cli/src/test/resources/golden/golden.tpr
rounds=${ROUNDS:-9}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$image" "$work/without"
rm "$work/without/lib/server/classes.jsa"
# Appends "<label> <milliseconds>" to the times; a command that fails stops the benchmark with its output.
timed() {
  local label=$1 t0 t1
  shift
  t0=$(date +%s%N)
  "$@" > "$work/out" 2>&1 || { cat "$work/out" >&2; echo "failed: $*" >&2; exit 1; }
  t1=$(date +%s%N)
  echo "$label $(( (t1 - t0) / 1000000 ))" >> "$work/times"
}
for round in $(seq "$rounds"); do
  for name in with without; do
    tiprobe=$([ "$name" = with ] && echo "$image" || echo "$work/without")/bin/tiprobe
    timed "version $name" "$tiprobe" --version
    timed "report $name" "$tiprobe" report -f "$work/r.html" "$recording"
  done
done
python3 - "$work/times" <<'PY'
import statistics, sys
times = {}
for line in open(sys.argv[1]):
    command, image, t = line.split()
    times.setdefault((command, image), []).append(int(t) / 1000)
for command in ("version", "report"):
    with_, without = statistics.median(times[(command, "with")]), statistics.median(times[(command, "without")])
    print(f"{command:8} with the archive {with_:.2f} s, without {without:.2f} s: {with_ / without:.2f}")
PY
