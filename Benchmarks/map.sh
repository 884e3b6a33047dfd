#!/usr/bin/env bash
# Map rendering at scale: a replay of a 1M-fix trace over thousands of regions, with and without --map,
# interleaved ROUNDS times (default 3); the difference is the map's cost. Prints each time and the map's size.
# Data: ../shared/bench/make_trace.py --fixes 1000000 and make_regions.py (BENCH_TRACE, BENCH_REGIONS).
set -euo pipefail
cd "$(dirname "$0")/.."
trace=${BENCH_TRACE:-.bench-data/trace-1m.nmea}
regions=${BENCH_REGIONS:-.bench-data/regions-5k.geojson}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for round in $(seq "${ROUNDS:-3}"); do
  for variant in plain map; do
    extra=(); [ "$variant" = map ] && extra=(--map "$out/map.html")
    start=$(date +%s.%N)
    .build/release/geowake replay --quiet --regions "$regions" "$trace" "${extra[@]}" >/dev/null 2>&1
    echo "round $round $variant $(echo "$(date +%s.%N) - $start" | bc) s"
  done
done
echo "map: $(stat -c %s "$out/map.html") bytes"
