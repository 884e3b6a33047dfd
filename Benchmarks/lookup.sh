#!/usr/bin/env bash
# Region lookup: geowake's `bench lookup` beside the peers of ../shared/bench (GEOS STRtree + prepared
# geometry, shapely STRtree; tzfpy, timezonefinder and GEOS on the time zones), on the same files, in one run.
#   swift build -c release --experimental-lto-mode=full && Benchmarks/lookup.sh [lookup] [tz]
# Data: `../shared/bench/run_peers.sh gen` (and `tz`) with the same BENCH_DIR (default ./.bench-data).
# Environment as run_peers.sh: SIZES="10000 100000 1000000" BIG=1000000 STRIDE=10 REPEAT=3; ROUNDS=3 runs
# every tool of a case that many times, interleaved, so that a slow spell of the machine falls on all of
# them alike. Writes JSON lines to $BENCH_DIR/results/geowake-lookup.jsonl and prints a table of medians
# over the rounds, with the lowest and highest per-round ratio.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}/bench
D=${BENCH_DIR:-$ROOT/.bench-data}; R=$D/results; mkdir -p "$R"
SIZES=${SIZES:-"10000 100000 1000000"}; BIG=${BIG:-1000000}; STRIDE=${STRIDE:-10}; REPEAT=${REPEAT:-3}; ROUNDS=${ROUNDS:-3}
GW=$ROOT/.build/release/geowake
OUT=$R/geowake-lookup.jsonl
steps=${*:-lookup tz}
has() { [[ " $steps " == *" $1 "* ]]; }
log() { echo "[$(date +%T)] $*" >&2; }
run() { local label=$1 round=$2; shift 2; "$@" | sed "s/^{/{\"case\":\"$label\",\"round\":$round,/" | tee -a "$OUT"; }
[ -x "$GW" ] || { echo "build first: swift build -c release --experimental-lto-mode=full" >&2; exit 1; }
[ -x "$D/geos_strtree" ] || gcc -O2 -march=native -Wall -o "$D/geos_strtree" "$SHARED/peers/geos_strtree.c" \
    $(geos-config --cflags) $(geos-config --clibs) -lm
echo "{\"machine\":\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)\",\"cores\":$(nproc),\"load\":\"$(cut -d' ' -f1-3 /proc/loadavg)\",\"date\":\"$(date -Is)\"}" >> "$OUT"
first=$(wc -l < "$OUT")

if has lookup; then
  for n in $SIZES; do
    pts=$D/pts_$n.txt
    if [ "$n" -ge "$BIG" ]; then awk "NR % $STRIDE == 1" "$pts" > "$D/pts_${n}_stride.txt"; pts=$D/pts_${n}_stride.txt; fi
    for round in $(seq "$ROUNDS"); do
      log "lookup $n regions, $(wc -l < "$pts") points, round $round"
      run "$n" "$round" "$GW" bench lookup "$D/regions_$n.geojson" "$pts" --repeat "$REPEAT" --hits-out "$D/hits_geowake_$n.txt"
      run "$n" "$round" "$D/geos_strtree" "$D/regions_$n.txt" "$pts" --repeat "$REPEAT" --hits-out "$D/hits_geos_$n.txt"
      run "$n" "$round" python3 "$SHARED/peers/shapely_peer.py" "$D/regions_$n.geojson" "$pts" --repeat "$REPEAT" --mode xy --chunk 20000
    done
    # Points whose region sets differ, and the kinds of the regions in question: the peers test circles
    # on a sphere (haversine), geowake on the WGS84 ellipsoid, so only circles should appear.
    python3 - "$D/regions_$n.txt" "$D/hits_geowake_$n.txt" "$D/hits_geos_$n.txt" "$n" <<'PY' | tee -a "$OUT"
import json, sys
kind = {}
for line in open(sys.argv[1]):
    k, rid, _ = line.split(" ", 2); kind[rid] = "circles" if k == "C" else "polygons"
points, regions = 0, {"circles": 0, "polygons": 0}
for a, b in zip(open(sys.argv[2]), open(sys.argv[3])):
    if a != b:
        points += 1
        for rid in set(a.split()[1:]) ^ set(b.split()[1:]): regions[kind[rid]] += 1
print(json.dumps({"case": sys.argv[4], "tool": "diff geowake geos", "points_differing": points, "regions_differing": regions}))
PY
  done
fi

if has tz; then
  [ -s "$D/tz.geojson" ] || { echo "no $D/tz.geojson: run ../shared/bench/run_peers.sh tz first" >&2; exit 1; }
  for round in $(seq "$ROUNDS"); do
    log "time zones, round $round"
    run tz "$round" "$GW" bench lookup "$D/tz.geojson" "$D/tz_pts.txt" --repeat "$REPEAT" --first-out "$D/tz_out_geowake.txt"
    run tz "$round" "$D/geos_strtree" "$D/tz.txt" "$D/tz_pts.txt" --repeat "$REPEAT" --first-out "$D/tz_out_geos.txt"
    run tz "$round" python3 "$SHARED/peers/tz_bench.py" tzfpy "$D/tz_pts.txt" "$D/tz_out_tzfpy.txt" --repeat "$REPEAT"
    run tz "$round" python3 "$SHARED/peers/tz_bench.py" timezonefinder "$D/tz_pts.txt" "$D/tz_out_timezonefinder.txt" --repeat "$REPEAT"
  done
  python3 "$SHARED/peers/tz_bench.py" agree "$D/tz_out_geowake.txt" "$D/tz_out_geos.txt" "$D/tz_out_tzfpy.txt" \
    | python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps({"case":"tz","tool":"agreement",**{k:v for k,v in d.items() if " vs " in k}}))' | tee -a "$OUT"
fi

tail -n +"$((first + 1))" "$OUT" | python3 -c '
import json, statistics, sys
rows = [json.loads(l) for l in sys.stdin if l.strip()]
cases, tools = [], {}
for r in rows:
    if "qps_median" not in r: continue
    if r["case"] not in cases: cases.append(r["case"])
    tools.setdefault((r["case"], r["tool"]), []).append(r)
def median(rs, key):
    values = [r[key] for r in rs if key in r]
    return statistics.median(values) if values else ""
print("| case | tool | load s | build s | queries/s | vs geowake (lowest-highest round) | bytes/region (budget) | hits/query |")
print("|---|---|---|---|---|---|---|---|")
for c in cases:
    gw = tools.get((c, "geowake"))
    for (case, tool), rs in tools.items():
        if case != c: continue
        ratio = mem = ""
        if gw and tool != "geowake":
            per_round = [g["qps_median"] / r["qps_median"] for g, r in zip(gw, rs)]
            ratio = "%.1fx (%.1f-%.1f)" % (median(gw, "qps_median") / median(rs, "qps_median"), min(per_round), max(per_round))
        if tool == "geowake":
            mem = "%.0f (%.0f)" % (rs[0]["bytes_per_region"], rs[0]["budget_bytes"] / max(1, rs[0]["regions"]))
        print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (c, tool, median(rs, "load_s") or median(rs, "init_s"), median(rs, "build_s"),
              "{:,}".format(int(median(rs, "qps_median"))), ratio, mem, rs[0].get("hits_per_query", "")))
for r in rows:
    if "points_differing" in r or r.get("tool") == "agreement": print(json.dumps(r))
'
