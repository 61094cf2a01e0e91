# Sourced by the repo's entry scripts: finds a JDK 25 or newer and exports JAVA_HOME.
# Order: $JAVA_HOME, the usual install folders (highest version wins), then `java` on PATH.
# Nobody has to know a JDK path; when none is found, one line says what is needed.

tiprobe_jdk_feature() {  # prints the feature version of the JDK at $1, or nothing
  local home=$1 v=
  [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || return 0
  if [ -f "$home/release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release")
  fi
  [ -n "$v" ] || v=$("$home/bin/java" -XshowSettings:properties -version 2>&1 \
                      | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p')
  echo "$v"
}

tiprobe_find_jdk25() {
  local best= best_v=0 home v
  if [ -n "${JAVA_HOME:-}" ]; then
    v=$(tiprobe_jdk_feature "$JAVA_HOME")
    if [ -n "$v" ] && [ "$v" -ge 25 ]; then echo "$JAVA_HOME"; return 0; fi
  fi
  # TIPROBE_JDK_DIRS (space-separated globs) replaces the usual folders; the tests use it.
  for home in ${TIPROBE_JDK_DIRS:-/usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* $HOME/.sdkman/candidates/java/* $HOME/.jdks/*}; do
    [ -d "$home" ] || continue
    v=$(tiprobe_jdk_feature "$home")
    if [ -n "$v" ] && [ "$v" -ge 25 ] && [ "$v" -gt "$best_v" ]; then best=$home; best_v=$v; fi
  done
  if [ -z "$best" ] && command -v javac >/dev/null 2>&1; then
    home=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    v=$(tiprobe_jdk_feature "$home")
    if [ -n "$v" ] && [ "$v" -ge 25 ]; then best=$home; fi
  fi
  [ -n "$best" ] && echo "$best"
}

JAVA_HOME=$(tiprobe_find_jdk25) || true
if [ -z "$JAVA_HOME" ]; then
  echo "tiprobe: a JDK 25 or newer is needed and none was found (looked at \$JAVA_HOME, /usr/lib/jvm, PATH); install one, e.g. Temurin 25, or set JAVA_HOME to it" >&2
  exit 1
fi
export JAVA_HOME
# Maven's Guice calls sun.misc.Unsafe, which JDK 25 warns about; the flag is valid on 25+ only,
# so it lives here rather than in .mvn/jvm.config (where it would stop Maven on an older JDK).
export MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow ${MAVEN_OPTS:-}"
