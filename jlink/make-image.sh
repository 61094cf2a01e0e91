#!/usr/bin/env bash
# Builds the tiprobe runtime image: a jlink image of the CLI with bin/tiprobe, plus the agent and
# probe jars under lib/. Called by jlink/pom.xml at package time:
#   make-image.sh <jdk home> <modules dir> <agent target dir> <output dir>
set -euo pipefail
jdk=$1 modules=$2 agent=$3 out=$4
rm -rf "$out"
"$jdk/bin/jlink" --module-path "$modules" --add-modules dev.tiprobe.cli \
    --launcher tiprobe=dev.tiprobe.cli/dev.tiprobe.cli.Main \
    --strip-debug --no-header-files --no-man-pages --compress=zip-6 \
    --output "$out"
cp "$agent/tiprobe-agent.jar" "$agent/tiprobe-probe.jar" "$out/lib/"
