#!/usr/bin/env bash
# Map rendering at scale: a replay of a 1M-fix trace over thousands of regions, with and without --map,
# interleaved ROUNDS times (default 3); the difference is the map's cost. Prints each time and the map's size,
# then, when chromium is installed, how long the page takes in the browser from navigation to its first frame
# after load (measured inside the page, so the browser's own start-up is left out).
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
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || exit 0
stamp='<script>addEventListener("load",function(){requestAnimationFrame(function(){setTimeout(function(){document.body.setAttribute("data-ms",performance.now())},0)})})</script></body>'
sed "s#</body>#$stamp#" "$out/map.html" >"$out/timed.html"
for round in $(seq "${ROUNDS:-3}"); do
  ms=$("$chromium" --headless --no-sandbox --disable-gpu --virtual-time-budget=60000 --window-size=1200,900 \
       --dump-dom "file://$out/timed.html" 2>/dev/null | grep -o 'data-ms="[0-9.]*"' | tr -dc '0-9.' || true)
  echo "round $round browser ${ms:-?} ms to the first frame"
done
