#!/usr/bin/env bash
# The main job: builds the tiprobe image (jlink/target/tiprobe) on a JDK 25 it finds by itself,
# then runs `tiprobe demo`: the bundled shop workload, traced; its outputs go to a new temporary directory it names.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
(cd "$here" && . scripts/jdk25.sh && ./mvnw -q -B -ntp -pl jlink -am package -DskipTests)
exec "$here/jlink/target/tiprobe/bin/tiprobe" demo "$@"
