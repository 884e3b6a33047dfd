#!/usr/bin/env bash
# The whole `geowake replay` path (parse, monitor, print) on the bench data of ../shared/bench, on one core.
#   swift build -c release --experimental-lto-mode=full
#   SIZES="10000 1000000" BENCH_DIR=$PWD/.bench-data ../shared/bench/run_peers.sh gen   # regions_N.geojson, trace_N.nmea
#   Benchmarks/replay.sh
# Environment: BENCH_DIR (default ./.bench-data), SIZES (default "10000 1000000"), REPEAT (default 3), CPU (default 0).
# Prints one JSON line per run and appends them to $BENCH_DIR/results/replay.jsonl:
#   replay:  `geowake replay` end to end, stdout to /dev/null; loading and replaying timed separately by its summary.
#   monitor: `geowake bench replay`, the monitor and event formatting alone on fixes parsed beforehand.
#   far:     the 10k-region trace against its own 10k regions, then against those plus every region of the
#            largest set moved 12 degrees east (ids prefixed "far-"): the same regions near every fix, a million
#            more far away. The events must be identical and the monitor's cost per fix the same.
#   exact:   `geowake replay --exact` against the differences of `geowake locate`'s consecutive sets.
set -euo pipefail
cd "$(dirname "$0")/.."
D=${BENCH_DIR:-$PWD/.bench-data}; SIZES=${SIZES:-"10000 1000000"}; REPEAT=${REPEAT:-3}; CPU=${CPU:-0}
G=$PWD/.build/release/geowake
R=$D/results; mkdir -p "$R"
[ -x "$G" ] || { echo "build first: swift build -c release --experimental-lto-mode=full" >&2; exit 1; }
one() { taskset -c "$CPU" "$@"; }
emit() { echo "$1" | tee -a "$R/replay.jsonl"; }
small=$(echo $SIZES | cut -d' ' -f1)

for n in $SIZES; do
  regions=$D/regions_$n.geojson; trace=$D/trace_$n.nmea
  for mode in default exact; do
    flag=(); [ $mode = exact ] && flag=(--exact)
    for i in $(seq "$REPEAT"); do
      summary=$(one "$G" replay --regions "$regions" "$trace" "${flag[@]}" 2>&1 >/dev/null | tail -1)
      load=$(sed -E 's/.*regions loaded in ([0-9.]+) s.*/\1/' <<<"$summary")
      replay=$(sed -E 's/.*replayed in ([0-9.]+) s.*/\1/' <<<"$summary")
      fixes=$(sed -E 's/.*: ([0-9]+) fixes replayed.*/\1/' <<<"$summary")
      events=$(sed -E 's/.*\); ([^;]*); regions loaded.*/\1/' <<<"$summary")
      emit "{\"bench\":\"replay\",\"mode\":\"$mode\",\"regions\":$n,\"fixes\":$fixes,\"load_s\":$load,\"replay_s\":$replay,\"events\":\"$events\"}"
    done
    emit "$(one "$G" bench replay --regions "$regions" "$trace" "${flag[@]}" --repeat "$REPEAT" | sed 's/^{/{"bench":"monitor",/')"
  done
done

large=$(echo $SIZES | awk '{print $NF}')
far=$D/far_$large; mkdir -p "$far"
ln -sf "$D/regions_$small.geojson" "$far/near.geojson"
[ -s "$far/far.geojson" ] || python3 - "$D/regions_$large.geojson" "$far/far.geojson" <<'PY'
import re, sys
position = re.compile(r"\[(-?[0-9.]+),(-?[0-9.]+)\]")
with open(sys.argv[1]) as source, open(sys.argv[2], "w") as out:
    for line in source:
        line = line.replace('"id":"', '"id":"far-')
        out.write(position.sub(lambda m: "[%.7f,%s]" % (float(m.group(1)) + 12, m.group(2)), line))
PY
for set in "$D/regions_$small.geojson" "$far"; do
  emit "$(one "$G" bench replay --regions "$set" "$D/trace_$small.nmea" --repeat "$REPEAT" | sed 's/^{/{"bench":"far",/')"
done
"$G" replay --regions "$D/regions_$small.geojson" "$D/trace_$small.nmea" 2>/dev/null | md5sum > "$D/near.md5"
"$G" replay --regions "$far" "$D/trace_$small.nmea" 2>/dev/null | md5sum > "$D/far.md5"
emit "{\"bench\":\"far-events-identical\",\"identical\":$(cmp -s "$D/near.md5" "$D/far.md5" && echo true || echo false)}"

if "$G" locate --help >/dev/null 2>&1; then
  regions=$D/regions_$small.geojson; trace=$D/trace_$small.nmea
  "$G" locate --regions "$regions" "$trace" > "$D/locate_$small.jsonl" 2>/dev/null
  "$G" replay --exact --regions "$regions" "$trace" > "$D/replay_exact_$small.jsonl" 2>/dev/null
  python3 - "$D/locate_$small.jsonl" "$D/replay_exact_$small.jsonl" <<'PY'
import json, sys
expected, previous = [], []
for line in open(sys.argv[1]):
    fix = json.loads(line)
    if "time" not in fix:
        continue
    current = fix["regions"]
    key = lambda r: r.encode()
    expected += [("exit", r, fix["time"]) for r in sorted(set(previous) - set(current), key=key)]
    expected += [("enter", r, fix["time"]) for r in sorted(set(current) - set(previous), key=key)]
    previous = current
actual = [(e["event"], e["region"], e["time"]) for e in map(json.loads, open(sys.argv[2]))]
same = actual == expected
print(json.dumps({"bench": "exact-vs-locate", "events": len(actual), "expected": len(expected), "identical": same}))
sys.exit(0 if same else 1)
PY
fi
