#!/usr/bin/env bash
# How much of a one-second program `tiprobe run --sample 10ms` covers, <runs> times, one after
# another: example.real.OneSecond (jlink's tests) spins on main for one second; the JVM also makes
# a JFR recording of its own with the same sampler settings, the reference for what JFR's sampler
# took. Prints, per run, main's sampling moments from main's first line on in tiprobe's profile
# and in JFR's own recording, those of JFR's that tiprobe lacks, and the coverage (moments of the
# 100 10-ms periods of that second).
#
# Needs the image (./mvnw25 -pl jlink -am package -DskipTests) and the test classes.
# Usage: scripts/compare/one-second.sh <runs> [out dir] [milliseconds the program runs, 1000]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$root/scripts/jdk25.sh"
runs=${1:?runs}
out=${2:-$(mktemp -d)}
millis=${3:-1000}
mkdir -p "$out"
tiprobe="$root/jlink/target/tiprobe/bin/tiprobe"
for i in $(seq 1 "$runs"); do
  "$tiprobe" run --sample 10ms -f "$out/run$i.json" -- "$JAVA_HOME/bin/java" \
      "-XX:StartFlightRecording:filename=$out/run$i.jfr,settings=none,+jdk.ExecutionSample#enabled=true,+jdk.ExecutionSample#period=10ms" \
      -Xlog:jfr+startup=off -cp "$root/jlink/target/test-classes" example.real.OneSecond "$millis" > "$out/run$i.out" 2> "$out/run$i.err"
  main_at=$(sed -n 's/^main at //p' "$out/run$i.out")
  echo "run $i: $("$JAVA_HOME/bin/java" "$here/OneSecondMoments.java" "$main_at" "$out/run$i.jfr" "$out/run$i.json" "$millis")"
done
