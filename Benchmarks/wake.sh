#!/usr/bin/env bash
# Latency from a fix that meets a criterion to the subscriber's handler running, through a real geowaked (release)
# replaying a generated trace at real time, for a subscriber that is connected, suspended (thawed for each fix) or
# dead (relaunched for each fix: it exits after one event). A fix is due at the source's start plus its offset,
# and the source starts at the first subscription, made by a reference subscriber that stays connected. Every
# subscriber stamps on CLOCK_MONOTONIC the start of each handler, and the reference also the moment just before it
# subscribed. Two origins for the source's start: `subscribing` (never after it, so latency is an upper bound,
# off by at most the subscription's round trip, printed as `start±`), and the reference's quickest delivery
# (never before it, so latency is a lower bound, off by the quickest connected delivery). Prints p50/p99 in ms.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$ROOT/.build/release}
GEOWAKED=${GEOWAKED:-$BIN/geowaked}
N=${N:-300}; M=${M:-100}; MODES=${MODES:-connected suspended relaunch}
D=$(mktemp -d /tmp/geowake-wake-bench-XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$D"' EXIT
[ -x "$GEOWAKED" ] && [ -x "$BIN/geowake-test-subscriber" ] || { echo "build geowaked and geowake-test-subscriber first" >&2; exit 1; }

# trace FILE STEP COUNT: fixes STEP seconds apart, gpsd JSON.
trace() { python3 - "$@" <<'PY'
import sys
path, step, count = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
with open(path, "w") as f:
    for i in range(count + 1):
        ms = round(i * step * 1000)
        f.write('{"class":"TPV","mode":3,"time":"2026-01-01T%02d:%02d:%02d.%03dZ","lat":52.51,"lon":13.4,"eph":5.0}\n'
                % (ms // 3600000, ms // 60000 % 60, ms // 1000 % 60, ms % 1000))
PY
}

# run NAME STEP COUNT BUDGET FROM SUBSCRIBER-FLAGS...: one daemon, one client, until the trace has been replayed;
# fixes before offset FROM (seconds) are left out (those handled by the process started by hand, or its first launch).
run() {
    local name=$1 step=$2 count=$3 budget=$4 from=$5; shift 5
    local dir=$D/$name; mkdir -p "$dir"
    trace "$dir/trace.json" "$step" "$count"
    "$GEOWAKED" --source "trace:$dir/trace.json" --speed 1 --budget "$budget" --socket "$dir/s.sock" \
        --state "$dir/state.sqlite" 2>"$dir/daemon.log" &
    local daemon=$!
    for _ in $(seq 100); do [ -S "$dir/s.sock" ] && break; sleep 0.05; done
    GEOWAKE_SOCKET=$dir/s.sock "$BIN/geowake-test-subscriber" "org.example.reference" "$dir/ref.jsonl" --stamp --standard &
    local reference=$!
    for _ in $(seq 100); do grep -q subscribing "$dir/ref.jsonl" 2>/dev/null && break; sleep 0.01; done
    GEOWAKE_SOCKET=$dir/s.sock "$BIN/geowake-test-subscriber" "org.example.bench" "$dir/out.jsonl" --stamp --standard "$@" &
    local subscriber=$!
    sleep "$(python3 -c "print($step * $count + 2)")"
    kill "$subscriber" "$reference" 2>/dev/null || true
    kill "$daemon"; wait "$daemon" 2>/dev/null || true
    # The processes the daemon launched lead their own process groups: end them by the pids they reported.
    for pid in $(python3 -c "import json,sys; [print(json.loads(l)['started']) for l in open(sys.argv[1]) if '\"started\"' in l]" "$dir/out.jsonl"); do
        kill -KILL "$pid" 2>/dev/null || true
    done
    python3 - "$name" "$dir/out.jsonl" "$dir/ref.jsonl" "$from" <<'PY'
import json, sys
name, path, ref, first = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
def read(path): return [json.loads(l) for l in open(path) if l.strip()]
def offset(t): return int(t[11:13]) * 3600 + int(t[14:16]) * 60 + float(t[17:23])
def fixes(lines, since): return [l for l in lines if l.get("event") == "location" and "handledAt" in l and offset(l["time"]) >= since]
lines, reference = read(path), read(ref)
stamp = next(l for l in reference if "subscribing" in l)
upper_origin, slack = stamp["subscribing"], (stamp["subscribedAt"] - stamp["subscribing"]) * 1000
lower_origin = min(l["handledAt"] - offset(l["time"]) for l in fixes(reference, 0.01))
def pct(values, p): return values[min(len(values) - 1, int(p / 100 * len(values)))]
events = fixes(lines, first) if name != "connected" else fixes(reference, 0.01)
up = sorted((l["handledAt"] - upper_origin - offset(l["time"])) * 1000 for l in events)
low = sorted((l["handledAt"] - lower_origin - offset(l["time"])) * 1000 for l in events)
launched = sum(1 for l in lines if l.get("reason") == "location")
print(f"{name:10s} n={len(up):4d}  p50 {pct(low, 50):7.2f}..{pct(up, 50):7.2f} ms  p99 {pct(low, 99):7.2f}..{pct(up, 99):7.2f} ms"
      f"  start± {slack:.2f} ms  (launched {launched})")
PY
}

for mode in $MODES; do
    case $mode in
    # The reference itself; the first fix is due at the very moment of subscribing: left out.
    connected) run connected 0.1 "$N" 10 0.05 --register-only ;;
    # The process started by hand subscribes and leaves; the fix at 0.8 s launches it; from 1.6 s on, each fix
    # thaws it (it is suspended 0.3 s after each event).
    suspended) run suspended 0.8 "$M" 0.3 1.2 --relaunch --register-only ;;
    # Started by hand, it handles one event (0.6 s) and exits cleanly, as does each process launched after it.
    relaunch) run relaunch 0.6 "$M" 10 0.9 --relaunch --exit-after 1 ;;
    esac
done
