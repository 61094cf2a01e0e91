#!/usr/bin/env bash
# Builds the tiprobe runtime image: a jlink image of the CLI with bin/tiprobe, plus the agent,
# probe and demo jars under lib/ (java.instrument is linked for the demo's traced JVM). Called by
# jlink/pom.xml at package time:
#   make-image.sh <jdk home> <modules dir> <agent target dir> <demo jar> <output dir>
set -euo pipefail
jdk=$1 modules=$2 agent=$3 demo=$4 out=$5
rm -rf "$out"
"$jdk/bin/jlink" --module-path "$modules" --add-modules dev.tiprobe.cli,java.instrument \
    --launcher tiprobe=dev.tiprobe.cli/dev.tiprobe.cli.Main \
    --strip-debug --no-header-files --no-man-pages --compress=zip-6 \
    --output "$out"
cp "$agent/tiprobe-agent.jar" "$agent/tiprobe-probe.jar" "$out/lib/"
cp "$demo" "$out/lib/tiprobe-demo.jar"
# jlink's own launcher neither quotes its path nor follows links: it fails from a folder with a
# space in its name and through a symbolic link (an install into /usr/local/bin, say).
cat > "$out/bin/tiprobe" <<'LAUNCHER'
#!/bin/sh
# tiprobe: runs the CLI on this image's own runtime, wherever the image lies and however it is reached.
self=$0
while [ -L "$self" ]; do
  link=$(readlink "$self")
  case $link in
    /*) self=$link ;;
    *) self=$(dirname "$self")/$link ;;
  esac
done
dir=$(cd "$(dirname "$self")" && pwd -P)
exec "$dir/java" -m dev.tiprobe.cli/dev.tiprobe.cli.Main "$@"
LAUNCHER
chmod 755 "$out/bin/tiprobe"
