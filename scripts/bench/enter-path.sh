#!/usr/bin/env bash
# The enter path as users run it, over runs long enough for everything after the start: a class
# change, a probe taken out by the overhead budget, a session that ended. Runs example.known.EnterLoop
# (a main loop calling a tiny static method, printing each second's ns per call) for RUN_SECONDS per row,
# the rows interleaved over ROUNDS rounds, and prints one Markdown table of each row's median:
#   whole run   ns per call over the whole run, start-up included (the program's own figure)
#   added       that, less the untraced row's (own callee, or other class's, as the row calls)
#   after       attached rows: ns per call over the seconds after the session ended, as a multiple
#               of the untraced row's over the same seconds (1.00: the program is as fast as before)
#   redefined   how often -Xlog:redefine+class+load saw the loop's class change (0: never stranded)
# Rows: untraced; -javaagent count, time, trace (overhead budget off); tiprobe run count (the budget
# on: it leaves a probe in a class that runs a loop); JFR method timing (JEP 520);
# count with the budget on, the callee in another class (the budget takes the probe out);
# tiprobe collect attached at second 2 for 3 s, count and time.
#
# Run it before landing a change to the probe, to tracing or to the injected bytecode.
# Needs the image: ./mvnw25 -pl jlink -am package -DskipTests
# Usage: [RUN_SECONDS=12] [ROUNDS=3] scripts/bench/enter-path.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/scripts/jdk25.sh"
seconds=${RUN_SECONDS:-12}
rounds=${ROUNDS:-3}
image=$root/jlink/target/tiprobe
agent=$image/lib/tiprobe-agent.jar
[ -x "$image/bin/tiprobe" ] || { echo "enter-path.sh: build the image first: ./mvnw25 -pl jlink -am package -DskipTests" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$JAVA_HOME/bin/javac" -d "$work/classes" "$root/jlink/src/test/java/example/known/EnterLoop.java"
loop=example.known.EnterLoop
java=("$JAVA_HOME/bin/java" -XX:+EnableDynamicAgentLoading -Xshare:off
      -Xlog:redefine+class+load=info -cp "$work/classes")
rows=(untraced count time trace run-count jfr untraced-other budget-other attached-count attached-time)

run_row() {  # $1 row, $2 output file
    local row=$1 out=$2 file=$work/r.tpr
    case $row in
        untraced) "${java[@]}" $loop "$seconds" own ;;
        count|time|trace) "${java[@]}" "-javaagent:$agent=trace=$loop::work,mode=$row,overhead=0,file=$file" $loop "$seconds" own ;;
        run-count) "$image/bin/tiprobe" run --trace "$loop::work" --mode count -f "$work/run.json" -- "${java[@]}" $loop "$seconds" own ;;
        jfr) "${java[@]}" "-XX:StartFlightRecording:jdk.MethodTiming#filter=$loop::work,filename=$work/r.jfr" $loop "$seconds" own ;;
        untraced-other) "${java[@]}" $loop "$seconds" other ;;
        budget-other) "${java[@]}" "-javaagent:$agent=trace=$loop\$Callee::work,mode=count,file=$file" $loop "$seconds" other ;;
        attached-*)
            "${java[@]}" $loop "$seconds" own > "$out" 2>&1 &
            local pid=$!
            until grep -q '^second 2 ' "$out" 2>/dev/null; do sleep 0.05; done
            "$image/bin/tiprobe" collect -d 3 --trace "$loop::work" --mode "${row#attached-}" -f "$work/a.json" "$pid" > "$out.collect" 2>&1
            # The second the session ended: the loop's speed is judged from the next one on.
            echo "ended $(grep -c '^second ' "$out")" >> "$out.collect"
            wait "$pid"
            return ;;
    esac > "$out" 2>&1
    rm -f "$file" "$work/r.jfr" "$work/run.json"
}

for round in $(seq 1 "$rounds"); do
    for row in "${rows[@]}"; do
        echo "enter-path.sh: round $round, $row" >&2
        run_row "$row" "$work/$row.$round"
    done
done

python3 - "$work" "$rounds" "$loop" "${rows[@]}" <<'PY'
import re, statistics, sys
work, rounds, loop, rows = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
def read(row, r):
    text = open(f"{work}/{row}.{r}").read()
    secs = [float(m) for m in re.findall(r"(?m)^second \d+ ([0-9.]+)$", text)]
    whole = float(re.search(r"(?m)^done ([0-9.]+) ", text).group(1))
    redefined = len(re.findall(r"redefined name=" + re.escape(loop) + r",", text))
    ended = None
    try:
        m = re.search(r"(?m)^ended (\d+)$", open(f"{work}/{row}.{r}.collect").read())
        ended = int(m.group(1)) if m else None
    except OSError:
        pass
    return secs, whole, redefined, ended
runs = {row: [read(row, r) for r in range(1, rounds + 1)] for row in rows}
def whole(row): return statistics.median(x[1] for x in runs[row])
print("| row | whole run (ns/call) | added (ns/call) | after the session (× untraced) | redefined |")
print("|---|---|---|---|---|")
for row in rows:
    base = "untraced-other" if row.endswith("-other") else "untraced"
    added = "" if row.startswith("untraced") else f"{whole(row) - whole(base):+.2f}"
    after = ""
    if row.startswith("attached"):
        ratios = []
        for (secs, _, _, ended), (plain, _, _, _) in zip(runs[row], runs["untraced"]):
            n = min(len(secs), len(plain))
            if ended is None or ended + 1 >= n: continue
            ratios.append(statistics.median(secs[ended + 1:n]) / statistics.median(plain[ended + 1:n]))
        after = f"{statistics.median(ratios):.2f}" if ratios else "?"
    redefined = "/".join(str(x[2]) for x in runs[row])
    print(f"| {row} | {whole(row):.2f} | {added} | {after} | {redefined} |")
PY
