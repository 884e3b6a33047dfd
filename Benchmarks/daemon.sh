#!/usr/bin/env bash
# geowaked under load, with a Python driver of raw protocol clients (Benchmarks/daemon_load.py) that ack each event
# as soon as they read it. Uses only the repository's trace (traces/berlin-drive.nmea, 1,200 fixes at 1 Hz).
#   swift build -c release --experimental-lto-mode=full --product geowaked
#   Benchmarks/daemon.sh [latency|load|outbox|register|restart ...]      (default: latency, load, outbox)
#   latency: one subscriber with standard updates, the trace at 10 fixes/s (FLOOD=1: beside a client pipelining
#            `list` requests it never reads, with the daemon's RSS); from the daemon taking a fix (its trace
#            log's CLOCK_MONOTONIC mark) to the subscriber reading the event, outbox commit included: p50, p99, max.
#   load:    1,000 clients x 100 regions (100,000 in the one index) at 10 fixes/s for 60 s: daemon CPU % of one core
#            (from /proc/PID/stat) and RSS every 10 s. RULE_SETS=K (default 1): the clients choose K distinct region
#            rules (hysteresis 0, 10, ... m), so the daemon runs K monitors over K indexes.
#   register: CLIENTS x REGIONS (default 1,000 x 1,000) registered one monitor request each, PARALLEL (default 1) clients
#            at a time, the requests encoded before the clock starts; then the restart over them, and `geowake locate`
#            (GEOWAKE, default beside geowaked) over the same regions: its time and peak RSS. STATE_DIR=DIR keeps the
#            daemon's store there (e.g. to profile a restart over it).
#   restart: STATE_DIR=DIR (a register run's): the daemon restarted over that store, its time to answer, CPU and RSS.
#   outbox:  100 clients with standard updates, the trace as fast as the daemon takes it: events/s through the
#            outbox, each acked by its client on receipt.
# Environment: CPU (default 0): the core geowaked is pinned to; the driver runs unpinned. GEOWAKED_ARGS: more geowaked
#   options, e.g. "--durability full". TRACE: another trace, e.g.
#   a longer one from Benchmarks/long_trace.py when the load setup outlasts the drive (2 min at 10 fixes/s).
#   READER (default c): the latency subscriber: c (Benchmarks/latency_reader.c, built here with cc; reads and timestamps
#   at once), swift (geowake-test-subscriber, built release beside geowaked: the GeoWake library's handler, so its
#   decoding, async delivery and acks count) or python (the driver's own client, whose interpreter wake-up and JSON
#   parsing add to the figure).
set -euo pipefail
cd "$(dirname "$0")/.."
G=${GEOWAKED:-$PWD/.build/release/geowaked}
# register compares the daemon's memory with `geowake locate` over the same regions.
export GEOWAKE=${GEOWAKE:-$(dirname "$G")/geowake}
[ -x "$G" ] || { echo "build first: swift build -c release --experimental-lto-mode=full --product geowaked" >&2; exit 1; }
PINNED=$(mktemp)
trap 'rm -f "$PINNED"' EXIT
printf '#!/bin/sh\nexec taskset -c %s %s "$@"\n' "${CPU:-0}" "$G" > "$PINNED"
chmod +x "$PINNED"
if [ "${READER:-c}" = c ]; then
  export LATENCY_READER=$PINNED.reader
  trap 'rm -f "$PINNED" "$LATENCY_READER"' EXIT
  cc -O2 -o "$LATENCY_READER" Benchmarks/latency_reader.c
elif [ "$READER" = swift ]; then
  export LATENCY_SUBSCRIBER=$(dirname "$G")/geowake-test-subscriber
  [ -x "$LATENCY_SUBSCRIBER" ] || { echo "build first: swift build -c release --experimental-lto-mode=full --product geowake-test-subscriber" >&2; exit 1; }
fi
for mode in ${@:-latency load outbox}; do
  python3 Benchmarks/daemon_load.py "$mode" "$PINNED" "${TRACE:-$PWD/traces/berlin-drive.nmea}"
done
