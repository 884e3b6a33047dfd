#!/usr/bin/env bash
# Decoding and monitoring beacon sightings: geowake (release) vs beacontools 2.1.0's parse_packet with the same
# monitoring in Python (Benchmarks/beacons_peer.py). Data: N sightings written by make_beacon_bench.py to .bench-data/.
# The peer runs on the first PEER_N lines (it is ~1000x slower; a million would take many minutes); the comparison
# is of rates. Timed in CPU seconds (user + sys), which a shared machine disturbs less than wall time; runs alternate
# A/B for ROUNDS rounds and medians are reported. Needs `pip install beacontools==2.1.0` and
# `swift build -c release --experimental-lto-mode=full`.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-1000000}
PEER_N=${PEER_N:-50000}
ROUNDS=${ROUNDS:-3}
GEOWAKE=.build/release/geowake
DATA=.bench-data
mkdir -p "$DATA"
[ -f "$DATA/beacons-$N.jsonl" ] || python3 Benchmarks/make_beacon_bench.py "$DATA" "$N"
head -n "$PEER_N" "$DATA/beacons-$N.jsonl" > "$DATA/beacons-peer-$PEER_N.jsonl"
REGIONS="$DATA/beacon-regions-100.geojson"

cpu() { /usr/bin/time -f "%U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{print $1 + $2}'; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

: > "$DATA/beacons-times"
for round in $(seq "$ROUNDS"); do
    echo "decode geowake $(cpu "$GEOWAKE" beacons "$DATA/beacons-$N.jsonl")" >> "$DATA/beacons-times"
    echo "decode python $(cpu python3 Benchmarks/beacons_peer.py --decode-only "$DATA/beacons-peer-$PEER_N.jsonl")" >> "$DATA/beacons-times"
    echo "monitor geowake $(cpu "$GEOWAKE" replay --beacons "$DATA/beacons-$N.jsonl" --regions "$REGIONS")" >> "$DATA/beacons-times"
    echo "monitor python $(cpu python3 Benchmarks/beacons_peer.py "$DATA/beacons-peer-$PEER_N.jsonl" "$REGIONS")" >> "$DATA/beacons-times"
done
for task in decode monitor; do
    g=$(awk -v t=$task '$1 == t && $2 == "geowake" {print $3}' "$DATA/beacons-times" | median)
    p=$(awk -v t=$task '$1 == t && $2 == "python" {print $3}' "$DATA/beacons-times" | median)
    awk -v t=$task -v g="$g" -v p="$p" -v n="$N" -v pn="$PEER_N" 'BEGIN {
        gr = n / g; pr = pn / p
        printf "%-8s geowake %8.0f sightings/s (%d in %.2f s CPU)   beacontools %7.0f sightings/s (%d in %.2f s CPU)   ratio %.0fx\n", t, gr, n, g, pr, pn, p, gr / pr }'
done
