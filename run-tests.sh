#!/usr/bin/env bash
# The tests: every module's unit and integration tests on a JDK 25 found by scripts/jdk25.sh.
# Needs gcc (the layout check compiles the JDK's jvmti.h), chromium (the flame graph test opens
# the page headless) and Go (the pprof test reads profiles back with go tool pprof); as root with
# apt, missing ones are installed from Debian's packages.
set -euo pipefail
cd "$(dirname "$0")"
. scripts/jdk25.sh
missing=()
command -v gcc >/dev/null || missing+=(gcc)
command -v chromium >/dev/null || missing+=(chromium)
command -v go >/dev/null || missing+=(golang-go)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "run-tests.sh: the tests need ${missing[*]}: apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi
exec ./mvnw -B -ntp verify "$@"
