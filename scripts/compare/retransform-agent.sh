#!/usr/bin/env bash
# Builds the plain retransforming agent (Retransform.java: no tiprobe) into <dir>/retransform.jar,
# for the comparisons that measure what a retransform alone costs a program.
# Usage: scripts/compare/retransform-agent.sh <dir>   (JAVA_HOME: a JDK 25)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: retransform-agent.sh <dir>}
mkdir -p "$dir"
"$JAVA_HOME/bin/javac" -d "$dir" "$here/Retransform.java"
printf 'Agent-Class: Retransform\nCan-Retransform-Classes: true\n' > "$dir/manifest.txt"
"$JAVA_HOME/bin/jar" cfm "$dir/retransform.jar" "$dir/manifest.txt" -C "$dir" Retransform.class
