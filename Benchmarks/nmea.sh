#!/usr/bin/env bash
# NMEA throughput: geowake beside gpsdecode and pynmea2 on the same ~110 MB file, in one run.
#   Benchmarks/nmea.sh            (BENCH_DIR=./.bench-data by default; REPEAT=3)
# Makes big.nmea with ../shared/bench/run_peers.sh gen when missing (pip install pynmea2 first, or
# run ../shared/bench/run_peers.sh deps), builds geowake in release mode, then times each tool the
# way run_peers.sh nmea does (gpsdecode < FILE > /dev/null; peers/pynmea2_bench.py), all under
# /usr/bin/time. It prints one JSON line per run and a table with MB/s by wall clock and by CPU
# time (user + sys): on a shared machine the wall clock includes waiting for a core, the CPU time
# does not, so the CPU-time ratio is the one-core comparison.
set -euo pipefail
cd "$(dirname "$0")/.."
export BENCH_DIR=${BENCH_DIR:-$PWD/.bench-data}
REPEAT=${REPEAT:-3}
SHARED=../shared/bench
RESULTS=$BENCH_DIR/results; mkdir -p "$RESULTS"
OUT=$RESULTS/nmea-side-by-side-$(date +%Y%m%dT%H%M%S).jsonl

[ -s "$BENCH_DIR/big.nmea" ] || SIZES=10000 FIXES=1000 "$SHARED/run_peers.sh" gen
swift build -c release --experimental-lto-mode=full --product geowake >&2
BIG=$BENCH_DIR/big.nmea
bytes=$(stat -L -c %s "$BIG")

# timed TOOL COMMAND...: one JSON line with wall, user and sys seconds of COMMAND (stdin from big.nmea).
timed() {
  local tool=$1; shift
  local s wall user sys rss
  s=$( { /usr/bin/time -f "%e %U %S %M" "$@" < "$BIG" > /dev/null; } 2>&1 | tail -1)
  read -r wall user sys rss <<< "$s"
  echo "{\"tool\":\"$tool\",\"bytes\":$bytes,\"wall_s\":$wall,\"user_s\":$user,\"sys_s\":$sys,\"maxrss_kb\":$rss}" | tee -a "$OUT"
}

echo "{\"machine\":\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)\",\"cores\":$(nproc),\"load\":\"$(cut -d' ' -f1-3 /proc/loadavg)\",\"date\":\"$(date -Is)\"}" | tee -a "$OUT"
for i in $(seq "$REPEAT"); do
  timed "geowake fixes" .build/release/geowake fixes "$BIG"
  timed "gpsdecode" gpsdecode
done
.build/release/geowake bench nmea "$BIG" --runs "$REPEAT" | tee -a "$OUT"
s=$( { /usr/bin/time -f "%U %S" python3 "$SHARED/peers/pynmea2_bench.py" "$BIG" --repeat "$REPEAT" > "$BENCH_DIR/pynmea2.json"; } 2>&1 | tail -1)
read -r user sys <<< "$s"
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); r['cpu_s_per_run']=round((float(sys.argv[2])+float(sys.argv[3]))/$REPEAT,2); print(json.dumps(r))" \
  "$BENCH_DIR/pynmea2.json" "$user" "$sys" | tee -a "$OUT"

python3 - "$OUT" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if '"tool"' in l]
def runs(tool): return [r for r in rows if r["tool"] == tool]
def rates(tool):
    r = runs(tool)
    mb = r[0]["bytes"] / 1e6
    if tool.startswith("pynmea2"):
        return r[0]["MB_per_s"], mb / r[0]["cpu_s_per_run"]
    return mb / statistics.median(x["wall_s"] for x in r), mb / statistics.median(x["user_s"] + x["sys_s"] for x in r)
fixes = rates("geowake fixes")
parse = runs("geowake bench nmea")[0]["MB_per_s"]
print("\n| tool | MB/s wall | MB/s CPU | geowake fixes is ... x faster (wall / CPU) |\n| --- | ---: | ---: | ---: |")
print(f"| geowake fixes FILE > /dev/null | {fixes[0]:.1f} | {fixes[1]:.1f} | |")
print(f"| geowake bench nmea (parse only, no output) | {parse:.1f} | | |")
for name, tool in (("gpsdecode < FILE > /dev/null", "gpsdecode"), ("pynmea2.parse per line", "pynmea2")):
    wall, cpu = rates(tool)
    print(f"| {name} | {wall:.1f} | {cpu:.1f} | {fixes[0] / wall:.1f} / {fixes[1] / cpu:.1f} |")
PY
echo "results: $OUT" >&2
