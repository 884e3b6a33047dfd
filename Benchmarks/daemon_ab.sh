#!/usr/bin/env bash
# A/B of two geowaked builds in one run, so that a shared machine's load falls on both alike: the latency run
# (Benchmarks/daemon.sh latency) alternated RUNS times each, then load and outbox once each.
#   cp .build/release/geowaked /tmp/geowaked-base      (from the commit to compare against, built release)
#   swift build -c release --experimental-lto-mode=full --product geowaked
#   Benchmarks/daemon_ab.sh /tmp/geowaked-base [RUNS]   (default 3; CPU as in daemon.sh)
# Prints every run's lines, then per build the median over runs of each figure (p50, p99, max) and B/A ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
A=${1:?usage: Benchmarks/daemon_ab.sh BASE_GEOWAKED [RUNS]}
B=$PWD/.build/release/geowaked
RUNS=${2:-3}
[ -x "$A" ] && [ -x "$B" ] || { echo "need $A and $B built" >&2; exit 1; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
echo "A: $A ($(sha1sum < "$A" | cut -c1-12))"
echo "B: $B ($(sha1sum < "$B" | cut -c1-12))"
for run in $(seq "$RUNS"); do
  for side in A B; do
    binary=$A; [ "$side" = B ] && binary=$B
    GEOWAKED=$binary Benchmarks/daemon.sh latency | sed "s/^/$side run $run: /" | tee -a "$OUT/latency"
  done
done
for mode in load outbox; do
  for side in A B; do
    binary=$A; [ "$side" = B ] && binary=$B
    GEOWAKED=$binary Benchmarks/daemon.sh "$mode" | sed "s/^/$side: /"
  done
done
python3 - "$OUT/latency" <<'EOF'
import re, statistics, sys
figures = {}
for line in open(sys.argv[1]):
    side, rest = line.split(" run ", 1)
    what = rest.split(": ", 1)[1].split(" (ms)")[0]
    for name, value in re.findall(r"(p50|p99|max) ([0-9.]+)", rest):
        figures.setdefault((what, name), {}).setdefault(side, []).append(float(value))
print("medians over runs (ms), A -> B (B/A):")
for (what, name), sides in figures.items():
    a, b = statistics.median(sides.get("A", [0])), statistics.median(sides.get("B", [0]))
    print(f"  {what} {name}: {a:.3f} -> {b:.3f} ({b / a if a else 0:.2f})")
EOF
