#!/usr/bin/env bash
# Fleet mode end to end through JetStream: DEVICES devices' fixes (the start of the Berlin drive each)
# published into the partitions' fixes streams on one nats-server, then drained by one worker, then (on a fresh server) by two, each pinned to a core, against 100k and 1M regions (the workers load them with --regions:
# a 1M-region set, 380 MB, is larger than a NATS message). Every fix goes through JetStream: fetched from
# the partition consumers, its events published with de-duplication ids and acknowledged, checkpoints written.
#   swift build -c release --experimental-lto-mode=full        (or G=/path/to/geowake)
#   python3 ../shared/bench/make_regions.py --count 100000 --seed 1 --out .bench-data/regions_100000.geojson
#   python3 ../shared/bench/make_regions.py --count 1000000 --seed 1 --out .bench-data/regions_1000000.geojson
#   Benchmarks/fleet.sh
# SPAN_KM=S reads regions_N_spanS.geojson instead (make_regions.py's --span-km S; its header advises 60·√(N/10,000)
# to keep the density of 10,000 over 60 km, so 600 for a million; by default it piles all N on the same 60 km).
# Environment: BENCH_DIR (./.bench-data), SIZES ("100000 1000000"), DEVICES (10000), FIXES (100: the first 300
# sentences, 136 fixes), WORKERS ("1 2"), BATCH (fixes per input message: `fleet publish --batch`, its default
# when unset; binaries before it had one fix per message and no option). docs/fleet.md has the figures (DEVICES=1000 at 1M regions;
# DEVICES=100000 FIXES=10 for 100,000 devices, whose first fixes alone give 7.8M events at 100k regions).
# One JSON line per run, also appended to $BENCH_DIR/results/fleet.jsonl: fixes/s per worker and together, the
# share of the workers' busy time spent in NATS calls, peak RSS per worker, events expected / stored / lost /
# duplicated (a device's events must equal `geowake replay` of its fixes), and memory per tracked device
# (peak RSS of the one-worker run less that of a 100-device run, over the device difference), and fixes per
# second of the workers' CPU less the 100-device worker's (loading the regions): per core, whether or not
# nats-server took a share of the workers' cores (with two workers on two cores it does).
# Before each run's workers, `fleet drain` (BARE_G, default G: binaries before it have none) reads the same
# partitions the same way on the same cores and does nothing else: bare_* is the engine's ceiling in that run.
# TUNE: reading options for both (`--fetch-batch N --fetch-bytes B --io-buffer B`); WORKER_TUNE the workers' alone.
# Each line also has the workers' CPU seconds (user + system) and the load averages at its end.
set -euo pipefail
cd "$(dirname "$0")/.."
D=${BENCH_DIR:-$PWD/.bench-data}; SIZES=${SIZES:-"100000 1000000"}; DEVICES=${DEVICES:-10000}; FIXES=${FIXES:-100}
WORKERS=${WORKERS:-"1 2"}
G=${G:-$PWD/.build/release/geowake}
BARE_G=${BARE_G:-$G}; TUNE=${TUNE:-}; WORKER_TUNE=${WORKER_TUNE:-$TUNE}
R=$D/results; mkdir -p "$R"
[ -x "$G" ] || { echo "build first: swift build -c release --experimental-lto-mode=full" >&2; exit 1; }
command -v nats-server >/dev/null || { echo "needs nats-server: scripts/install-deps --test" >&2; exit 1; }
W=$(mktemp -d /tmp/geowake-fleet-bench-XXXXXX)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$W"; }
trap cleanup EXIT
[ -n "${KEEP:-}" ] && trap - EXIT
head -n $((FIXES * 3)) traces/berlin-drive.nmea > "$W/trace.nmea"   # the first FIXES*3 sentences
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
F=(--servers "nats://127.0.0.1:$port" --partitions 8)

start_server() {
  [ -n "$server" ] && { kill "$server"; wait "$server" 2>/dev/null || true; }
  rm -rf "$W/store"
  cat > "$W/n.conf" <<END
server_name: bench
listen: 127.0.0.1:$port
max_payload: 64MB
jetstream { store_dir: "$W/store", max_memory_store: 1GB }
$("$G" fleet setup --print-mappings --partitions 8)
END
  nats-server -c "$W/n.conf" > "$W/server.log" 2>&1 &
  server=$!
  for _ in $(seq 50); do "$G" fleet setup "${F[@]}" >/dev/null 2>&1 && return; sleep 0.2; done
  echo "nats-server did not start" >&2; exit 1
}

# run REGIONS WORKERS DEVICES: publish, drain, check; writes the JSON line's fields to $W/line.json.
run() {
  local regions=$1 k=$2 devices=$3
  start_server
  "$G" fleet publish "$W/trace.nmea" --device d --devices "$devices" ${BATCH:+--batch "$BATCH"} "${F[@]}" 2> "$W/publish.log"
  # The engine's ceiling first: the same partitions read and acknowledged the same way, on the same cores, by
  # readers that do nothing else (the workers then re-create the consumers at the stream's start).
  local pids=()
  for i in $(seq 0 $((k - 1))); do
    taskset -c "$i" "$BARE_G" fleet drain --share "$i/$k" $TUNE "${F[@]}" > "$W/bare$i.json" 2> "$W/bare$i.log" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || echo "fleet drain exited with $? (its line, if printed, is kept)" >&2; done
  pids=()
  for i in $(seq 0 $((k - 1))); do
    taskset -c "$i" /usr/bin/time -f "maxrss_kb %M cpu_s %U %S" "$G" fleet worker --name "w$i" --regions "$regions" \
      --exit-when-idle 15 --wait-for-workers "$k" $WORKER_TUNE "${F[@]}" 2> "$W/w$i.log" &
    pids+=($!)
  done
  # Binaries before 138fe26 never left on --exit-when-idle when their checkpoints were fast (an empty checkpoint
  # round counted as work): once every worker's log has been silent for 30 s, their input is done; SIGTERM
  # (to the worker itself, not its `time`) ends them with their summary.
  while kill -0 "${pids[@]}" 2>/dev/null; do
    sleep 2
    local newest=$(stat -c %Y "$W"/w*.log | sort -n | tail -1)
    if [ $(( $(date +%s) - newest )) -gt 30 ]; then
      for p in "${pids[@]}"; do pkill -TERM -P "$p" 2>/dev/null || true; done
      break
    fi
  done
  wait "${pids[@]}" || true
  "$G" fleet events --durable bench --idle-exit 3 "${F[@]}" > "$W/events.txt" 2>/dev/null
  "$G" replay --regions "$regions" "$W/trace.nmea" > "$W/expected.txt" 2>/dev/null
  python3 - "$W" "$k" "$devices" > "$W/line.json" <<'END'
import json, re, sys
w, k, devices = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
expected = open(f"{w}/expected.txt").read().splitlines()
by, seqs = {}, set()
for line in open(f"{w}/events.txt"):
    # "index" (the event's place in its message) since events are batched per input message.
    m = re.match(r'\{"device":"([^"]*)","seq":(\d+),(?:"index":(\d+),)?(.*)\n?$', line)
    place = (int(m.group(2)), int(m.group(3) or 0))
    if place in seqs: continue          # given to the reader twice: one stored event
    seqs.add(place)
    by.setdefault(m.group(1), []).append("{" + m.group(4))
stored = len(seqs)
lost = dup = wrong = 0
for i in range(devices):
    got = by.get(f"d-{i}", [])
    if got != expected: wrong += 1
    lost += max(0, len(expected) - len(got)); dup += max(0, len(got) - len(expected))
workers, rss = [], []
for i in range(k):
    text = open(f"{w}/w{i}.log").read()
    # Before batched input a message was a fix: "N messages, E events in T ms (R messages/s)".
    s = re.search(r"released; (\d+) messages, (?:(\d+) fixes, )?(\d+) events in (\d+) ms \((\d+) (?:messages|fixes)/s\); busy (\d+) ms, of which NATS (\d+) ms", text)
    workers.append(dict(messages=int(s[2] or s[1]), input_messages=int(s[1]), events=int(s[3]), ms=int(s[4]), rate=int(s[5]), busy=int(s[6]), nats=int(s[7])))
    rss.append(int(re.search(r"maxrss_kb (\d+)", text)[1]))
    cpu = re.search(r"cpu_s ([\d.]+) ([\d.]+)", text)
    workers[-1]["cpu_s"] = round(float(cpu[1]) + float(cpu[2]), 1) if cpu else None
bare = [json.loads(open(f"{w}/bare{i}.json").read() or '{"fixes":0,"ms":0,"fixes_per_s":null,"messages_per_s":null,"cpu_ms":0}') for i in range(k)]
together = sum(x["messages"] for x in workers) / (max(x["ms"] for x in workers) / 1000)
nats = sum(x["nats"] for x in workers) / max(1, sum(x["busy"] for x in workers))
print(json.dumps(dict(workers=k, devices=devices, fixes=sum(x["messages"] for x in workers),
    input_messages=sum(x["input_messages"] for x in workers),
    bare_fixes_per_s_each=[b["fixes_per_s"] for b in bare],
    bare_fixes_per_s_together=int(sum(b["fixes"] for b in bare) / max(1e-9, max(b["ms"] for b in bare) / 1000)),
    bare_messages_per_s_each=[b["messages_per_s"] for b in bare], bare_cpu_s=[round(b["cpu_ms"] / 1000, 2) for b in bare],
    fixes_per_s_each=[x["rate"] for x in workers], fixes_per_s_together=int(together), nats_share=round(nats, 3),
    cpu_s=[x["cpu_s"] for x in workers], load=open("/proc/loadavg").read().split()[:3],
    maxrss_mb=[r // 1024 for r in rss], events_expected=devices * len(expected), events_stored=stored,
    lost=lost, duplicated=dup, devices_differing_from_replay=wrong)))
END
  # A run that lost, duplicated or differed keeps its logs (the server's, the workers', the drains') to look at.
  if ! grep -q '"lost": 0, "duplicated": 0, "devices_differing_from_replay": 0' "$W/line.json"; then
    local kept="$R/failed-$(date +%Y%m%dT%H%M%S)"
    mkdir -p "$kept" && cp "$W"/*.log "$W/line.json" "$kept/" && echo "this run's logs are in $kept" >&2
  fi
}

for n in $SIZES; do
  regions=$D/regions_$n${SPAN_KM:+_span$SPAN_KM}.geojson
  [ -f "$regions" ] || { echo "missing $regions (see the header)" >&2; exit 1; }
  # A 100-device run first: what a worker costs before its devices (loading the regions, idling out).
  run "$regions" 1 100; small=$(cat "$W/line.json")
  for k in $WORKERS; do
    run "$regions" "$k" "$DEVICES"
    line=$(python3 - "$(cat "$W/line.json")" "$small" <<'END'
import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
# The workers' CPU less the 100-device worker's, per fix: a worker core's rate wherever nats-server ran.
net = sum(c - b["cpu_s"][0] for c in a["cpu_s"]) if None not in a["cpu_s"] + b["cpu_s"] else None
a["fixes_per_net_cpu_s"] = int(a["fixes"] / net) if net and net > 0 else None
if a["workers"] == 1:
    a["bytes_per_device"] = round((a["maxrss_mb"][0] - b["maxrss_mb"][0]) * 1048576 / (a["devices"] - b["devices"]))
print(json.dumps(a))
END
)
    echo "{\"bench\":\"fleet\",\"regions\":$n,${SPAN_KM:+\"span_km\":$SPAN_KM,}${line#\{}" | tee -a "$R/fleet.jsonl"
  done
done
