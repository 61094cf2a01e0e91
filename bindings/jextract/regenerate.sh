#!/usr/bin/env bash
# Regenerates the JVMTI bindings with jextract from the JDK 25 headers.
#   bindings/jextract/regenerate.sh [output-source-root]
# Needs `jextract` on PATH (built from openjdk/jextract for JDK 25) and a JDK 25 (found like ./mvnw25 does).
# Writes package dev.tiprobe.bindings.jvmti under the output root (default: bindings/src/main/java),
# replacing what is there. The generated files are never edited by hand: change includes.txt and rerun.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:-$repo/bindings/src/main/java}
. "$repo/scripts/jdk25.sh"
command -v jextract >/dev/null || { echo "regenerate.sh: jextract is not on PATH" >&2; exit 1; }
inc=$JAVA_HOME/include
pkg_dir=$out/dev/tiprobe/bindings/jvmti
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# jextract warns about every skipped bitfield and variadic pointer (see includes.txt); keep other output.
jextract -I "$inc" -I "$inc/linux" \
  -t dev.tiprobe.bindings.jvmti --header-class-name jvmti_h \
  @"$here/includes.txt" --output "$tmp" "$inc/jvmti.h" \
  2>&1 | grep -vE 'bitfields are not supported|variadic callback .* is not supported' >&2 || true
[ -f "$tmp/dev/tiprobe/bindings/jvmti/jvmti_h.java" ] || { echo "regenerate.sh: jextract produced no jvmti_h.java" >&2; exit 1; }
rm -rf "$pkg_dir"
mkdir -p "$(dirname "$pkg_dir")"
mv "$tmp/dev/tiprobe/bindings/jvmti" "$pkg_dir"
echo "regenerated $(ls "$pkg_dir" | wc -l) files in $pkg_dir"
