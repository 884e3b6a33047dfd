#!/usr/bin/env bash
# On-CPU time of `geowake locate`'s per-fix loop alone, loading excluded: perf samples (4 kHz, on one core) whose
# stack holds TraceFile.read, which drives the loop. Steadier than locate.sh's wall-clock difference when
# loading takes seconds and the loop about one. Builds alternate, ROUNDS times (default 3).
#   swift build -c release --experimental-lto-mode=full && Benchmarks/locate_loop.sh REGIONS.geojson TRACE.nmea [OTHER_GEOWAKE...]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
REGIONS=$1; TRACE=$2; shift 2
ROUNDS=${ROUNDS:-3}; HZ=4000
command -v perf > /dev/null || { echo "needs perf (apt-get install linux-perf)" >&2; exit 1; }
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
fixes=$("$ROOT/.build/release/geowake" fixes "$TRACE" 2>/dev/null | wc -l)
for round in $(seq "$ROUNDS"); do
  for bin in "$@" "$ROOT/.build/release/geowake"; do
    perf record -q -F $HZ -g -o "$WORK/perf.data" taskset -c 1 "$bin" locate --quiet --regions "$REGIONS" "$TRACE" > /dev/null 2>&1
    perf script -i "$WORK/perf.data" 2> /dev/null > "$WORK/samples.txt"
    seconds=$(python3 - "$WORK/samples.txt" $HZ <<'PY'
import sys
loop = sum(1 for sample in open(sys.argv[1]).read().split("\n\n") if "TraceFile" in sample)
print(loop / float(sys.argv[2]))
PY
)
    echo "{\"round\":$round,\"geowake\":\"$bin\",\"fixes\":$fixes,\"loop_cpu_s\":$seconds,\"fixes_per_s\":$(echo "$fixes / $seconds" | bc)}"
  done
done
