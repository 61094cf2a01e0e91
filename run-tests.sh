#!/usr/bin/env bash
# The tests: every module's unit and integration tests on a JDK 25 found by scripts/jdk25.sh.
# Needs gcc (the layout check compiles the JDK's jvmti.h); .ci/run installs it where missing.
set -euo pipefail
cd "$(dirname "$0")"
. scripts/jdk25.sh
command -v gcc >/dev/null || { echo "run-tests.sh: gcc is needed (the layout test compiles jvmti.h): apt-get install gcc" >&2; exit 1; }
exec ./mvnw -B -ntp verify "$@"
