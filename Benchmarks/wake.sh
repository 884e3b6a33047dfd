#!/usr/bin/env bash
# Latency from a fix that meets a criterion to the subscriber's handler running, through a real geowaked (release)
# replaying a generated trace at real time, for a subscriber that is connected, suspended (thawed for each fix) or
# dead (relaunched for each fix: it exits after one event). The fix is due at the source's start plus its offset;
# the subscriber stamps the source's start (when its subscription was confirmed, within ~0.1 ms of it) and each
# handler's start on CLOCK_MONOTONIC, so latency = handledAt - (subscribedAt + offset). Prints p50 and p99 in ms.
#   swift build -c release --product geowaked && swift build -c release --product geowake-test-subscriber
#   Benchmarks/wake.sh            # N=300 connected, M=100 thaws and relaunches (about 3 minutes)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$ROOT/.build/release}
N=${N:-300}; M=${M:-100}
D=$(mktemp -d /tmp/geowake-wake-bench-XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$D"' EXIT
[ -x "$BIN/geowaked" ] && [ -x "$BIN/geowake-test-subscriber" ] || { echo "build geowaked and geowake-test-subscriber first" >&2; exit 1; }

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
    "$BIN/geowaked" --source "trace:$dir/trace.json" --speed 1 --budget "$budget" --socket "$dir/s.sock" \
        --state "$dir/state.sqlite" 2>"$dir/daemon.log" &
    local daemon=$!
    for _ in $(seq 100); do [ -S "$dir/s.sock" ] && break; sleep 0.05; done
    GEOWAKE_SOCKET=$dir/s.sock "$BIN/geowake-test-subscriber" "org.example.bench" "$dir/out.jsonl" --stamp --standard "$@" &
    local subscriber=$!
    sleep "$(python3 -c "print($step * $count + 2)")"
    kill "$subscriber" 2>/dev/null || true
    kill "$daemon"; wait "$daemon" 2>/dev/null || true
    # The processes the daemon launched lead their own process groups: end them by the pids they reported.
    for pid in $(python3 -c "import json,sys; [print(json.loads(l)['started']) for l in open(sys.argv[1]) if '\"started\"' in l]" "$dir/out.jsonl"); do
        kill -KILL "$pid" 2>/dev/null || true
    done
    python3 - "$name" "$dir/out.jsonl" "$from" <<'PY'
import json, sys
name, path, first = sys.argv[1], sys.argv[2], float(sys.argv[3])
lines = [json.loads(l) for l in open(path) if l.strip()]
start = next(l["subscribedAt"] for l in lines if "subscribedAt" in l)
def offset(t):
    h, m, s = t[11:13], t[14:16], t[17:23]
    return int(h) * 3600 + int(m) * 60 + float(s)
lat = sorted((l["handledAt"] - (start + offset(l["time"]))) * 1000 for l in lines
             if l.get("event") == "location" and "handledAt" in l and offset(l["time"]) >= first)
def pct(p): return lat[min(len(lat) - 1, int(p / 100 * len(lat)))]
launched = sum(1 for l in lines if l.get("reason") == "location")
print(f"{name:10s} n={len(lat):4d}  p50 {pct(50):7.2f} ms  p99 {pct(99):7.2f} ms  max {lat[-1]:7.2f} ms  (launched {launched})")
PY
}

# The first fix is due at the very moment of subscribing: left out.
run connected 0.1 "$N" 10 0.05
# The process started by hand subscribes and leaves; the fix at 0.8 s launches it; from 1.6 s on, each fix thaws
# it (it is suspended 0.3 s after each event).
run suspended 0.8 "$M" 0.3 1.2 --relaunch --register-only
# Each process handles one event and exits cleanly; the next fix relaunches it.
run relaunch 0.6 "$M" 10 0.3 --relaunch --exit-after 1
