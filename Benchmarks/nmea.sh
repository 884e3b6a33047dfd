#!/usr/bin/env bash
# NMEA throughput: geowake beside gpsdecode and pynmea2 on the same ~110 MB file, in one run.
#   Benchmarks/nmea.sh            (BENCH_DIR=./.bench-data by default; REPEAT=3)
# Makes big.nmea with ../shared/bench/run_peers.sh gen when missing (pip install pynmea2 first,
# or run ../shared/bench/run_peers.sh deps), builds geowake in release mode, then prints one
# JSON line per tool and a table with MB/s and geowake's ratios to the peers.
set -euo pipefail
cd "$(dirname "$0")/.."
export BENCH_DIR=${BENCH_DIR:-$PWD/.bench-data}
REPEAT=${REPEAT:-3}
SHARED=../shared/bench
RESULTS=$BENCH_DIR/results; mkdir -p "$RESULTS"
OUT=$RESULTS/nmea-side-by-side-$(date +%Y%m%dT%H%M%S).jsonl

[ -s "$BENCH_DIR/big.nmea" ] || SIZES=10000 FIXES=1000 "$SHARED/run_peers.sh" gen
swift build -c release --product geowake >&2
BIG=$BENCH_DIR/big.nmea
bytes=$(stat -L -c %s "$BIG")

echo "{\"machine\":\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)\",\"cores\":$(nproc),\"load\":\"$(cut -d' ' -f1-3 /proc/loadavg)\",\"date\":\"$(date -Is)\"}" | tee -a "$OUT"
for i in $(seq "$REPEAT"); do
  s=$( { /usr/bin/time -f "%e %U %S %M" .build/release/geowake fixes "$BIG" > /dev/null; } 2>&1 | tail -1)
  read -r wall user sys rss <<< "$s"
  echo "{\"tool\":\"geowake fixes\",\"bytes\":$bytes,\"wall_s\":$wall,\"user_s\":$user,\"sys_s\":$sys,\"maxrss_kb\":$rss}" | tee -a "$OUT"
done
.build/release/geowake bench nmea "$BIG" --runs "$REPEAT" | tee -a "$OUT"
REPEAT=$REPEAT "$SHARED/run_peers.sh" nmea | grep -v '"machine"' | tee -a "$OUT"

python3 - "$OUT" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if '"tool"' in l]
def runs(tool): return [r for r in rows if r["tool"] == tool]
def wall_rate(tool):
    r = runs(tool)
    if not r: return None
    if "MB_per_s" in r[-1]: return r[-1]["MB_per_s"]
    return r[0]["bytes"] / 1e6 / statistics.median(x["wall_s"] for x in r)
fixes = wall_rate("geowake fixes")
cpu = [x for x in runs("geowake fixes")]
fixes_cpu = cpu[0]["bytes"] / 1e6 / statistics.median(x["user_s"] + x["sys_s"] for x in cpu)
print("\n| tool | MB/s (wall, median) | geowake fixes is ... x faster |\n| --- | ---: | ---: |")
print(f"| geowake fixes FILE > /dev/null | {fixes:.1f} (CPU time: {fixes_cpu:.1f}) | |")
print(f"| geowake bench nmea (parse only, no output) | {wall_rate('geowake bench nmea'):.1f} | |")
for name, tool in (("gpsdecode < FILE > /dev/null", "gpsdecode"), ("pynmea2.parse per line", "pynmea2")):
    value = wall_rate(tool)
    print(f"| {name} | {value:.1f} | {fixes / value:.1f} |")
PY
echo "results: $OUT" >&2
