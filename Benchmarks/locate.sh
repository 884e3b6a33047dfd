#!/usr/bin/env bash
# `geowake locate` end to end (load, read the trace, look up, sort ids, print) beside GEOS's query loop
# (../shared/bench/peers/geos_strtree.c, STRtree + prepared geometry), on the same regions and trace.
#   swift build -c release --experimental-lto-mode=full && Benchmarks/locate.sh REGIONS.geojson TRACE.nmea
# Data: ../shared/bench/make_regions.py and make_trace.py (same --span-km). BEFORE=path/to/geowake adds an
# older build, run alternately with this one (ROUNDS=3 rounds), to compare rates and check identical output.
# The rate excludes loading: each build's load time is measured on an empty trace and taken off (fastest of the rounds).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}/bench
D=${BENCH_DIR:-$ROOT/.bench-data}; mkdir -p "$D"
REGIONS=$1; TRACE=$2; ROUNDS=${ROUNDS:-3}
GW=$ROOT/.build/release/geowake
[ -x "$GW" ] || { echo "build first: swift build -c release --experimental-lto-mode=full" >&2; exit 1; }
[ -x "$D/geos_strtree" ] || gcc -O2 -march=native -Wall -o "$D/geos_strtree" "$SHARED/peers/geos_strtree.c" \
    $(geos-config --cflags) $(geos-config --clibs) -lm
base=$(basename "$REGIONS" .geojson)
[ -s "$D/$base.txt" ] || python3 "$SHARED/peers/prep.py" regions2txt "$REGIONS" "$D/$base.txt"
[ -s "$D/$base.pts" ] || python3 "$SHARED/peers/prep.py" nmea2pts "$TRACE" "$D/$base.pts"
: > "$D/empty.nmea"
fixes=$("$GW" fixes "$TRACE" 2>/dev/null | wc -l)
seconds() { local s=$(date +%s.%N); "$@" > /dev/null 2>&1; echo "$(date +%s.%N) - $s" | bc -l; }
tools=("after:$GW"); [ -n "${BEFORE:-}" ] && tools=("before:$BEFORE" "${tools[@]}")
declare -A best_load best_total
for round in $(seq "$ROUNDS"); do
  for tool in "${tools[@]}"; do
    name=${tool%%:*}; bin=${tool#*:}
    load=$(seconds "$bin" locate --regions "$REGIONS" "$D/empty.nmea")
    total=$(seconds "$bin" locate --regions "$REGIONS" "$TRACE")
    echo "{\"round\":$round,\"tool\":\"geowake locate ($name)\",\"fixes\":$fixes,\"load_s\":$load,\"total_s\":$total}"
    [ -z "${best_load[$name]:-}" ] || (( $(echo "$load < ${best_load[$name]}" | bc) )) && best_load[$name]=$load
    [ -z "${best_total[$name]:-}" ] || (( $(echo "$total < ${best_total[$name]}" | bc) )) && best_total[$name]=$total
  done
  "$D/geos_strtree" "$D/$base.txt" "$D/$base.pts" --repeat 1 | sed "s/^{/{\"round\":$round,/"
done
# One round's load and total can each be seconds off on a busy machine while the loop itself takes about one:
# the rate takes the fastest load and the fastest whole run of all rounds.
for tool in "${tools[@]}"; do
  name=${tool%%:*}
  echo "{\"tool\":\"geowake locate ($name)\",\"fixes\":$fixes,\"fastest_load_s\":${best_load[$name]},\"fastest_total_s\":${best_total[$name]},\"fixes_per_s\":$(echo "$fixes / (${best_total[$name]} - ${best_load[$name]})" | bc)}"
done
if [ -n "${BEFORE:-}" ]; then
  a=$("$BEFORE" locate --regions "$REGIONS" "$TRACE" 2>/dev/null | sha256sum | cut -c1-16)
  b=$("$GW" locate --regions "$REGIONS" "$TRACE" 2>/dev/null | sha256sum | cut -c1-16)
  echo "{\"output_sha256_before\":\"$a\",\"output_sha256_after\":\"$b\",\"identical\":$([ "$a" = "$b" ] && echo true || echo false)}"
fi
