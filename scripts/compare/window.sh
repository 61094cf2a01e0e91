# Sourced by the comparison scripts: reads `<warm-up seconds> <window seconds> <out dir> --` off
# the caller's arguments (what is left is the java command), finds JDK 25, and names the tools:
# $warm, $window, $out (made), $lib (async-profiler's library), $tiprobe (the image's), $jcmd.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$root/scripts/jdk25.sh"
warm=$1 window=$2 out=$3
shift 3
[ "$1" = "--" ] && shift
lib="$root/jmh/target/async-profiler/linux-x64/libasyncProfiler.so"
tiprobe="$root/jlink/target/tiprobe/bin/tiprobe"
jcmd="$JAVA_HOME/bin/jcmd"
mkdir -p "$out"
