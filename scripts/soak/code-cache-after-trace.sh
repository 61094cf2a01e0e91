#!/usr/bin/env bash
# What a tracing session leaves in the code cache, and when the JVM takes it back: starts
# example.real.H2Load (two JDBC clients on an embedded H2), traces `org.h2.**` in time mode for
# <seconds> after 20 s of warm-up, then runs four full GCs three seconds apart. Before, after the
# session and after each GC it prints the code cache's use and H2's compiled methods by state: in
# use, and not entrant (the versions a retransform replaced, which wait for the GC to unload them).
#
# Needs the image and jlink's test classes (./mvnw25 install -DskipTests, then
# ./mvnw25 -pl jlink -am package -DskipTests: online once, for H2's jar).
# Usage: scripts/soak/code-cache-after-trace.sh <seconds>
set -euo pipefail
seconds=${1:?usage: code-cache-after-trace.sh <seconds>}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/scripts/jdk25.sh"
jcmd="$JAVA_HOME/bin/jcmd"
out=$(mktemp -d)
if ! "$root/mvnw25" -q -B -ntp -o -f "$root/pom.xml" -pl jlink dependency:build-classpath -Dmdep.includeScope=test \
        -DexcludeGroupIds=dev.tiprobe -Dmdep.outputFile="$out/classpath.txt" > "$out/classpath.log" 2>&1; then
    echo "could not list the test class path (see $out/classpath.log)" >&2
    exit 1
fi
mkdir -p "$out/db"
"$JAVA_HOME/bin/java" -XX:+EnableDynamicAgentLoading -cp "$root/jlink/target/test-classes:$(cat "$out/classpath.txt")" \
    example.real.H2Load "$out/db" 2 $((seconds + 80)) > "$out/h2.out" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
look() {  # $1: when
  local used states
  used=$("$jcmd" $pid Compiler.codecache | sed -n 's/^CodeCache: .* used=\([0-9]*\)Kb.*/\1/p')
  states=$("$jcmd" $pid Compiler.codelist | awk 'NF > 3 && $4 ~ /^org\.h2\./ { n[$3]++ } END { printf "%d in use, %d not entrant", n[0], n[1] }')
  printf '%-14s code cache %6d KB; H2 methods compiled: %s\n' "$1" "$used" "$states"
}
sleep 20
look before
"$root/jlink/target/tiprobe/bin/tiprobe" collect -d "${seconds}s" --trace 'org.h2.**' --mode time -f "$out/session.txt" $pid \
    > "$out/session.log" 2>&1
look after
for gc in 1 2 3 4; do
  "$jcmd" $pid GC.run > /dev/null
  sleep 3
  look "after GC $gc"
done
