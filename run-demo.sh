#!/usr/bin/env bash
# The main job: builds tiprobe and runs its demonstration on a JDK 25 it finds by itself.
set -euo pipefail
cd "$(dirname "$0")"
. scripts/jdk25.sh
./mvnw -q -B -ntp -pl modules/jvmti -am package -DskipTests
exec "$JAVA_HOME/bin/java" --illegal-native-access=deny \
  --enable-native-access=dev.tiprobe.bindings,dev.tiprobe.jvmti \
  --module-path bindings/target/classes:modules/jvmti/target/classes \
  --module dev.tiprobe.jvmti/dev.tiprobe.jvmti.demo.JvmtiDemo "$@"
