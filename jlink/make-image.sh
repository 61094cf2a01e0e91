#!/usr/bin/env bash
# Builds the tiprobe runtime image: a jlink image of the CLI with bin/tiprobe, plus the agent,
# probe and demo jars under lib/ (java.instrument is linked for the demo's traced JVM). Called by
# jlink/pom.xml at package time:
#   make-image.sh <jdk home> <modules dir> <agent target dir> <demo jar> <output dir> <a recording>
# The recording, and a short profile of the demo run by <jdk home>, train the command's class-data
# sharing archive (see the end).
set -euo pipefail
jdk=$1 modules=$2 agent=$3 demo=$4 out=$5 training=$6
rm -rf "$out"
# jlink links explicit modules only. A dependency that names itself in its manifest alone
# (an Automatic-Module-Name; none today) gets the module-info jdeps derives from its classes.
# Such a dependency must need no other library: jdeps sees only the JDK here.
for jar in "$modules"/*.jar; do
  if "$jdk/bin/jar" --describe-module --file "$jar" | grep -q "automatic"; then
    work=$(mktemp -d)
    "$jdk/bin/jdeps" --generate-module-info "$work" "$jar" >/dev/null  # it needs only the JDK's modules
    info=$(ls "$work"/*/module-info.java)
    name=$(basename "$(dirname "$info")")
    "$jdk/bin/javac" --module-path "$modules" --patch-module "$name=$jar" -d "$work/classes" "$info"
    "$jdk/bin/jar" --update --file "$jar" -C "$work/classes" module-info.class
    rm -rf "$work"
  fi
done
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
# The serial collector: a command is one thread that allocates much and lives briefly; G1 made a
# 1.5 MB recording's report take 2.0 to 3.8 s on 2 cores, the serial collector 1.6. Not where the
# environment picks a collector itself: the JVM refuses to start with two.
# Compiling later (five times the calls before each tier): a command's start runs much code a few
# hundred times, and compiling it took the core the target's agent starts on. `tiprobe -d 5 <pid>`
# then reached the agent 0.15-0.2 s sooner; a 1.3 MB recording's HTML report took 5 % longer.
case "$JAVA_TOOL_OPTIONS $JDK_JAVA_OPTIONS $_JAVA_OPTIONS" in
  *Use*GC*) exec "$dir/java" -XX:CompileThresholdScaling=5 -m dev.tiprobe.cli/dev.tiprobe.cli.Main "$@" ;;
  *) exec "$dir/java" -XX:+UseSerialGC -XX:CompileThresholdScaling=5 -m dev.tiprobe.cli/dev.tiprobe.cli.Main "$@" ;;
esac
LAUNCHER
chmod 755 "$out/bin/tiprobe"
# Class-data sharing for the command: the classes a report and a short profile load (the JDK's
# and tiprobe's; picocli's, compiled for Java 5, are too old for an archive), parsed and laid out
# once here, in the archive the image's JVM maps by default. A command then starts in about two
# thirds of the time (BENCHMARKS.md, "Command start-up"); the JVM ignores an archive that does
# not fit its options. The target JVM is never touched: only the
# command's runtime has it.
# The environment's JVM options stay out: another collector in them would refuse to start beside
# the launcher's, and the archive is made for the launcher's options.
work=$(mktemp -d)
image_java() { env -u JAVA_TOOL_OPTIONS -u JDK_JAVA_OPTIONS -u _JAVA_OPTIONS "$out/bin/java" -XX:+UseSerialGC "$@" > "$work/log" 2>&1 \
    || { cat "$work/log" >&2; exit 1; }; }
image_java -XX:DumpLoadedClassList="$work/report.txt" -m dev.tiprobe.cli/dev.tiprobe.cli.Main report -f "$work/training.html" "$training"
# A short profile of a running JVM trains it too: the attach, the options and the printed profile
# are on the way from `tiprobe -d 5 <pid>` to its first sample and from its stop to its exit
# (BENCHMARKS.md, "Attach latency").
env -u JAVA_TOOL_OPTIONS -u JDK_JAVA_OPTIONS -u _JAVA_OPTIONS "$jdk/bin/java" -XX:+EnableDynamicAgentLoading -cp "$demo" \
    demo.shop.Shop 60 > "$work/target.log" 2>&1 &
target=$!
trap 'kill "$target" 2>/dev/null || true; rm -rf "$work"' EXIT  # should the training fail
for _ in $(seq 300); do grep -q "open for" "$work/target.log" && break; sleep 0.1; done
image_java -XX:DumpLoadedClassList="$work/collect.txt" -m dev.tiprobe.cli/dev.tiprobe.cli.Main -d 1 "$target"
kill "$target" 2>/dev/null || true
wait "$target" 2>/dev/null || true
trap - EXIT
# One list of both: each class once, renumbered (a list's ids name its own lines only; the
# command's classes all come from the JDK's own loaders, whose lines are the name alone), then
# the lambda forms and proxies either run resolved.
{ awk '!/^[#@]/ && !seen[$1]++ { print $1 " id: " n++ }' "$work/report.txt" "$work/collect.txt"
  { grep -h '^@' "$work/report.txt" "$work/collect.txt" || true; } | awk '!seen[$0]++'; } > "$work/classes.txt"
image_java -Xshare:dump -XX:SharedClassListFile="$work/classes.txt" -XX:SharedArchiveFile="$out/lib/server/classes.jsa" -Xlog:cds=off \
    -m dev.tiprobe.cli/dev.tiprobe.cli.Main
rm -rf "$work"
