#!/usr/bin/env bash
# The JVM's native memory with a tiprobe session, beside the same program alone: starts
# example.real.ScriptChurn (Groovy scripts compiled and dropped, jlink's test program) twice with
# -XX:NativeMemoryTracking=summary, attaches tiprobe with the flags given to the second, and three
# times, a third of <seconds> apart, runs a full GC in both and prints what `status` says of
# tiprobe's memory and each NMT category's committed KB above the program alone.
#
# Needs the image and jlink's test classes (./mvnw25 install -DskipTests) and Groovy in ~/.m2.
# Usage: scripts/soak/native-beside.sh <seconds> '<tiprobe start flags>'
# e.g.   scripts/soak/native-beside.sh 360 "--sample 10ms --alloc 512k --lock 1ms --trace 'Script*::*;Order*::*' --mode time"
set -euo pipefail
seconds=$1 flags=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/scripts/jdk25.sh"
groovy=$(ls "$HOME"/.m2/repository/org/apache/groovy/groovy/*/groovy-*.jar | grep -v sources | tail -1)
tiprobe="$root/jlink/target/tiprobe/bin/tiprobe"
jcmd="$JAVA_HOME/bin/jcmd"
out=$(mktemp -d)
run() { "$JAVA_HOME/bin/java" -XX:NativeMemoryTracking=summary -Xmx512m -cp "$root/jlink/target/test-classes:$groovy" \
          example.real.ScriptChurn $((seconds + 60)) > "$1" 2>&1 & }
run "$out/alone.log"; alone=$!
run "$out/profiled.log"; profiled=$!
trap 'kill $alone $profiled 2>/dev/null || true' EXIT
until grep -q ready "$out/alone.log" && grep -q ready "$out/profiled.log"; do sleep 0.2; done
eval "$tiprobe start $flags -f $out/profiled.json $profiled" > /dev/null
for look in 1 2 3; do
  sleep $((seconds / 3))
  "$jcmd" $alone GC.run > /dev/null; "$jcmd" $profiled GC.run > /dev/null; sleep 2
  "$jcmd" $alone VM.native_memory summary > "$out/alone.nmt"; "$jcmd" $profiled VM.native_memory summary > "$out/profiled.nmt"
  echo "at $((look * seconds / 3)) s: $("$tiprobe" status $profiled | grep -o "tiprobe's memory:.*")"
  # each category's committed KB, the profiled JVM's less the alone one's, largest first
  committed() { sed -n 's/^ *- *\([A-Za-z ]*[a-z]\) (reserved=[0-9]*KB, committed=\([0-9]*\)KB.*/\2 \1/p' "$1"; }
  awk 'FNR == 1 { f++ } { kb = $1; $1 = ""; d[$0] += (f == 1 ? -kb : kb) }
       END { for (k in d) if (d[k] >= 512 || d[k] <= -512) printf "%9d KB%s\n", d[k], k }' \
      <(committed "$out/alone.nmt") <(committed "$out/profiled.nmt") | sort -rn
done
"$tiprobe" stop $profiled > /dev/null
