#!/usr/bin/env python3
"""Load driver for geowaked: raw protocol clients (JSON lines over the Unix socket) that ack every event on receipt.

    daemon_load.py latency GEOWAKED TRACE   fix-to-handler latency, p50/p99 (one subscriber, standard updates; the
                                            subscriber is $LATENCY_SUBSCRIBER, geowake-test-subscriber through the
                                            GeoWake library, or $LATENCY_READER, Benchmarks/latency_reader.c built,
                                            if set)
    daemon_load.py load GEOWAKED TRACE      1,000 clients x 100 regions at 10 fixes/s: daemon CPU % and RSS over time
    daemon_load.py outbox GEOWAKED TRACE    events/s through the outbox with an ack per event (100 clients)
    daemon_load.py register GEOWAKED TRACE  CLIENTS x REGIONS registered, then the restart over them
    daemon_load.py restart GEOWAKED TRACE   the restart over the store in STATE_DIR (as register left it)
"""
import contextlib
import json
import os
import random
import resource
import sqlite3
import selectors
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time


class Client:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = b""
        self.next_id = 0
        self.events = 0
        self.last_event = None

    def send(self, **request):
        self.next_id += 1
        request["id"] = self.next_id
        return self.send_line(json.dumps(request).encode())

    def send_line(self, line):
        """Sends a request already encoded, whose id is the next one."""
        self.sock.sendall(line + b"\n")
        return self.next_id

    def lines(self):
        """Whatever complete lines can be read now (blocks until at least one byte)."""
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise EOFError
        self.buffer += chunk
        *complete, self.buffer = self.buffer.split(b"\n")
        return [json.loads(line) for line in complete if line]

    def reply(self, request_id):
        while True:
            for message in self.lines():
                if message.get("type") == "reply" and message.get("id") == request_id:
                    if not message.get("ok"):
                        raise RuntimeError(f"request {request_id}: {message}")
                    return message
                if message.get("type") == "event":
                    self.handle(message)

    def request(self, op, **fields):
        return self.reply(self.send(op=op, **fields))

    def handle(self, message):
        self.events += 1
        self.last_event = message["event"]
        self.send(op="ack", seq=message["seq"])

    def start(self, client_id):
        self.lines()  # the server's hello
        self.request("hello", protocol=1)
        self.request("register", client=client_id)


def start_daemon(geowaked, trace, speed, directory, extra=()):
    log = open(os.path.join(directory, "geowaked.log"), "w")
    socket_path = os.path.join(directory, "geowaked.sock")
    # GEOWAKED_ARGS: more geowaked options, e.g. "--durability full".
    process = subprocess.Popen([geowaked, "--source", f"trace:{trace}", "--speed", str(speed), "--socket", socket_path,
                                "--state", os.path.join(directory, "geowake.sqlite"), *extra,
                                *os.environ.get("GEOWAKED_ARGS", "").split()], stderr=log)
    for _ in range(3000):
        if os.path.exists(socket_path):
            break
        time.sleep(0.01)
    return process, socket_path


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def runqueue_seconds(pid):
    """Time the process's threads were ready to run but waited for a core (/proc/PID/task/*/schedstat): on a machine
    shared with other work, the part of a wall time that was not the daemon's own."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(OSError):
            total += int(open(f"/proc/{pid}/task/{task}/schedstat").read().split()[1])
    return total / 1e9


def rss_mib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Flooder:
    """FLOOD=1: a client beside the subscriber that pipelines `list` requests (1,000 regions with 100-byte ids, about
    150 KB a reply) and never reads a reply, while the daemon's RSS is sampled every 0.2 s."""

    def __init__(self, path, pid):
        self.client = Client(path)
        self.client.start("bench.flooder")
        features = [{"type": "Feature", "id": f"{n:0100d}", "properties": {"radius": 50},
                     "geometry": {"type": "Point", "coordinates": [0.001 * n, 10.0]}} for n in range(1000)]
        self.client.request("monitor", features=features)
        self.pid, self.sent, self.rss, self.running = pid, 0, [rss_mib(pid)], True
        self.threads = [threading.Thread(target=self.flood, daemon=True), threading.Thread(target=self.sample, daemon=True)]
        for thread in self.threads:
            thread.start()

    def flood(self):
        batch = b'{"id":1,"op":"list"}\n' * 100
        try:
            while self.running:
                self.client.sock.sendall(batch)
                self.sent += 100
        except OSError:
            pass

    def sample(self):
        while self.running:
            self.rss.append(rss_mib(self.pid))
            time.sleep(0.2)

    def stop(self):
        self.running = False
        print(f"flood: {self.sent:,} list requests pipelined and never read; daemon RSS {self.rss[0]:.0f} MiB before, "
              f"max {max(self.rss):.0f} MiB during")


def latency(geowaked, trace, directory):
    process, path = start_daemon(geowaked, trace, 10, directory, ["--log-level", "trace"])
    received = []
    reader = os.environ.get("LATENCY_READER")
    subscriber = os.environ.get("LATENCY_SUBSCRIBER")
    flooder = Flooder(path, process.pid) if os.environ.get("FLOOD") else None
    try:
        if subscriber:
            # A GeoWake library subscriber; its handler stamps CLOCK_MONOTONIC as it begins.
            stamps = os.path.join(directory, "handled.jsonl")
            subprocess.run([subscriber, "bench.latency", stamps, "--standard", "--stamp", "--until-ended"],
                           env={**os.environ, "GEOWAKE_SOCKET": path}, check=True)
            handled = [json.loads(line) for line in open(stamps)]
            received = [event["handledAt"] for event in handled if event.get("event") == "location"]
        elif reader:
            output = subprocess.run([reader, path, "bench.latency"], stdout=subprocess.PIPE, check=True).stdout
            received = [float(line) for line in output.split()]
        else:
            client = Client(path)
            client.start("bench.latency")
            client.request("startStandard")
            ended = False
            while not ended:
                for message in client.lines():
                    if message.get("type") != "event":
                        continue
                    now = time.monotonic()
                    event = message["event"]
                    if event["event"] == "location":
                        received.append(now)
                    client.handle(message)
                    ended = event.get("state") == "ended"
    finally:
        if flooder:
            flooder.stop()
        process.terminate()
        process.wait()
    marks = []
    inner = {"computed": [], "written": [], "committed": [], "sent": []}
    for line in open(os.path.join(directory, "geowaked.log")):
        if "monotonic=" in line and line.rstrip().endswith("fix"):
            marks.append(float(line.split("monotonic=")[1].split()[0]))
            for name, values in inner.items():
                if f"{name}=" in line:
                    values.append(float(line.split(f"{name}=")[1].split()[0]))
    # The first fix is taken while startStandard's reply is written: every later fix pairs with its event.
    pairs = list(zip(marks[-len(received):], received))
    latencies = [(handled - taken) * 1000 for taken, handled in pairs]
    spans = {"computed": "its events computed", "written": "statements run, before COMMIT", "committed": "its events committed",
             "sent": "its events sent and the launcher told"}
    for name, values in inner.items():
        if values:
            inside = [(mark - taken) * 1000 for taken, mark in zip(marks[-len(received):], values[-len(received):])]
            print(f"latency: inside the daemon, fix taken -> {spans[name]} (ms): "
                  f"p50 {percentile(inside, 50):.3f}  p99 {percentile(inside, 99):.3f}  max {max(inside):.3f}")
    # The slowest fixes with their marks, to tell a slow phase of the daemon from a wake-up or preemption of either process.
    n = len(received)
    rows = list(zip(latencies, *[[(mark - taken) * 1000 for taken, mark in zip(marks[-n:], values[-n:])] for values in inner.values()]))
    for row in sorted(rows)[-5:]:
        print("latency: a slowest fix (ms): read " + f"{row[0]:.3f}, " + ", ".join(f"{name} {value:.3f}" for name, value in zip(inner, row[1:])))
    who = "GeoWake library subscriber" if subscriber else "C reader" if reader else "Python reader"
    until = "its handler began" if subscriber else "event read by the subscriber"
    print(f"latency ({who}): {len(latencies)} fixes at 10/s, fix taken -> {until} (ms): "
          f"p50 {percentile(latencies, 50):.3f}  p99 {percentile(latencies, 99):.3f}  max {max(latencies):.3f}")


def regions_for(client_number, count, generator):
    """Circles and squares of 30-300 m scattered over 60 x 60 km around the drive: about one region per fix."""
    features = []
    for n in range(count):
        lat = 52.52 + generator.uniform(-0.27, 0.27)
        lon = 13.38 + generator.uniform(-0.44, 0.44)
        size = generator.uniform(30, 300)
        region_id = f"c{client_number}-r{n}"
        if n % 2:
            features.append({"type": "Feature", "id": region_id, "properties": {"radius": size},
                             "geometry": {"type": "Point", "coordinates": [lon, lat]}})
        else:
            dlat, dlon = size / 111_000, size / 68_000
            ring = [[lon - dlon, lat - dlat], [lon + dlon, lat - dlat], [lon + dlon, lat + dlat], [lon - dlon, lat + dlat],
                    [lon - dlon, lat - dlat]]
            features.append({"type": "Feature", "id": region_id, "properties": {},
                             "geometry": {"type": "Polygon", "coordinates": [ring]}})
    return features


def load(geowaked, trace, directory, clients=1000, regions_each=100, window=60):
    process, path = start_daemon(geowaked, trace, 10, directory)
    generator = random.Random(13)
    # RULE_SETS=K: client n chooses hysteresis 10 * (n % K) m, so the daemon keeps K monitors (K=1: the defaults).
    rule_sets = int(os.environ.get("RULE_SETS", "1"))
    connected = []
    try:
        setup_start = time.monotonic()
        for n in range(clients):
            client = Client(path)
            client.start(f"bench.load.{n:04d}")
            rules = {"hysteresis": 10 * (n % rule_sets)} if rule_sets > 1 else {}
            client.request("monitor", features=regions_for(n, regions_each, generator), **rules)
            connected.append(client)
        print(f"load: {clients} clients with {clients * regions_each} regions in {rule_sets} rule set(s) set up in "
              f"{time.monotonic() - setup_start:.1f} s; RSS {rss_mib(process.pid):.0f} MiB")
        selector = selectors.DefaultSelector()
        for client in connected:
            selector.register(client.sock, selectors.EVENT_READ, client)
        start_cpu, start = cpu_seconds(process.pid), time.monotonic()
        samples = []
        next_sample = start
        while time.monotonic() - start < window:
            for key, _ in selector.select(timeout=0.5):
                for message in key.data.lines():
                    if message.get("type") == "event":
                        key.data.handle(message)
            if time.monotonic() >= next_sample:
                samples.append((time.monotonic() - start, rss_mib(process.pid)))
                next_sample += 10
        elapsed = time.monotonic() - start
        cpu = (cpu_seconds(process.pid) - start_cpu) / elapsed * 100
        events = sum(client.events for client in connected)
        print(f"load: over {elapsed:.0f} s at 10 fixes/s: daemon CPU {cpu:.1f} % of one core, {events} events acked")
        print("load: RSS over time: " + ", ".join(f"{t:.0f} s {m:.0f} MiB" for t, m in samples))
    finally:
        process.terminate()
        process.wait()


def register(geowaked, trace, directory):
    """CLIENTS x REGIONS (default 1,000 x 1,000) registered, each client with one monitor request, PARALLEL (default 1)
    clients at a time (as subscribers starting together at boot: their commits then share syncs); then the daemon
    restarted over the stored regions: time until it answers, and its RSS then."""
    clients, each = int(os.environ.get("CLIENTS", "1000")), int(os.environ.get("REGIONS", "1000"))
    generator = random.Random(13)
    # The requests are encoded before the clock starts: Python takes about 12 s to write 1M features' JSON.
    start = time.monotonic()
    requests = [json.dumps({"op": "monitor", "features": regions_for(n, each, generator), "id": 3}).encode()
                for n in range(clients)]
    print(f"register: {sum(map(len, requests)) / 2**20:.0f} MiB of monitor requests encoded in "
          f"{time.monotonic() - start:.1f} s (not counted below)")
    process, path = start_daemon(geowaked, trace, 10, directory)
    try:
        parallel = int(os.environ.get("PARALLEL", "1"))

        def register_every(first):
            for n in range(first, clients, parallel):
                client = Client(path)
                client.start(f"bench.register.{n:04d}")
                client.next_id += 1
                client.reply(client.send_line(requests[n]))
                client.sock.close()

        start, client_cpu = time.monotonic(), time.process_time()
        threads = [threading.Thread(target=register_every, args=(k,)) for k in range(parallel)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - start
        print(f"register: {clients} clients x {each} regions ({clients * each:,}), {parallel} at a time, registered in {elapsed:.1f} s "
              f"({clients * each / elapsed:,.0f} regions/s; daemon CPU {cpu_seconds(process.pid):.1f} s, "
              f"waiting for a core {runqueue_seconds(process.pid):.1f} s; client CPU {time.process_time() - client_cpu:.1f} s); "
              f"RSS {rss_mib(process.pid):.0f} MiB")
    finally:
        process.terminate()
        process.wait()
    restart(geowaked, trace, directory)
    locate_over_stored_regions(geowaked, trace, directory)


def restart(geowaked, trace, directory):
    """The daemon started over the store in `directory` (STATE_DIR, as `register` left it): the time until it answers
    a client's register, and its CPU time and RSS then."""
    store = os.path.join(directory, "geowake.sqlite")
    if not os.path.exists(store):
        sys.exit(f"restart: no store at {store} (STATE_DIR=DIR of a register run)")
    # Closed before the daemon starts: it refuses a store another process has open.
    with contextlib.closing(sqlite3.connect(store)) as connection:
        regions = connection.execute("SELECT (SELECT coalesce(sum(count), 0) FROM regionBatch) - (SELECT count(*) FROM regionRemoved)").fetchone()[0]
    start = time.monotonic()
    process, path = start_daemon(geowaked, trace, 10, directory)
    try:
        while True:
            try:
                Client(path).start("bench.register.0000")
                break
            except OSError:
                if process.poll() is not None:
                    sys.exit(f"restart: geowaked exited: {open(os.path.join(directory, 'geowaked.log')).read().strip()}")
                time.sleep(0.01)
        print(f"restart: over {regions:,} stored regions, answering after {time.monotonic() - start:.1f} s; "
              f"daemon CPU {cpu_seconds(process.pid):.1f} s, waiting for a core {runqueue_seconds(process.pid):.1f} s; "
              f"RSS {rss_mib(process.pid):.0f} MiB")
    finally:
        process.terminate()
        process.wait()


def locate_over_stored_regions(geowaked, trace, directory):
    """`geowake locate` (beside geowaked) over the very regions the daemon stored, for its load time and peak RSS."""
    geowake = os.environ.get("GEOWAKE", "")
    if not os.access(geowake, os.X_OK):
        print(f"register: no {geowake} to compare locate with (GEOWAKE=PATH)")
        return
    regions = os.path.join(directory, "stored.geojson")
    with sqlite3.connect(os.path.join(directory, "geowake.sqlite")) as db, open(regions, "w") as out:
        out.write('{"type":"FeatureCollection","features":[')
        # A batch row holds a monitor's features one after another, `ends` their 4-byte little-endian end offsets.
        removed = {row for (row,) in db.execute("SELECT row FROM regionRemoved")}
        n = 0
        for first, ends, features in db.execute("SELECT firstRow, ends, features FROM regionBatch ORDER BY firstRow"):
            start = 0
            for k, (end,) in enumerate(struct.iter_unpack("<I", ends)):
                if first + k not in removed:
                    out.write(("," if n else "") + features[start:end].decode())
                    n += 1
                start = end
        out.write("]}")
    peak_file = os.path.join(directory, "locate.peak")
    start = time.monotonic()
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", peak_file, geowake, "locate", "--quiet", "--regions", regions, trace],
                   stdout=subprocess.DEVNULL, check=True)
    elapsed = time.monotonic() - start
    peak = int(open(peak_file).read().split()[-1]) / 1024
    print(f"register: geowake locate over the same regions: {elapsed:.1f} s (loading them, then the trace); peak RSS {peak:.0f} MiB")


def outbox(geowaked, trace, directory, clients=100):
    process, path = start_daemon(geowaked, trace, 0, directory)
    connected = []
    try:
        for n in range(clients):
            client = Client(path)
            client.start(f"bench.outbox.{n:03d}")
            connected.append(client)
        selector = selectors.DefaultSelector()
        for client in connected:
            selector.register(client.sock, selectors.EVENT_READ, client)
        start = time.monotonic()
        for client in connected:
            client.send(op="startStandard")
        ended = set()
        while len(ended) < clients:
            for key, _ in selector.select(timeout=5):
                client = key.data
                for message in client.lines():
                    if message.get("type") == "event":
                        client.handle(message)
                        if message["event"].get("state") == "ended":
                            ended.add(client)
        elapsed = time.monotonic() - start
        events = sum(client.events for client in connected)
        print(f"outbox: {events} events to {clients} clients, each acked on receipt, in {elapsed:.2f} s: "
              f"{events / elapsed:,.0f} events/s")
    finally:
        process.terminate()
        process.wait()


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("latency", "load", "outbox", "register", "restart"):
        sys.exit(__doc__)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    # STATE_DIR=DIR: the daemon's socket, store and log go there and stay, e.g. to profile a restart over them.
    if os.environ.get("STATE_DIR"):
        os.makedirs(os.environ["STATE_DIR"], exist_ok=True)
        globals()[sys.argv[1]](sys.argv[2], sys.argv[3], os.environ["STATE_DIR"])
        return
    with tempfile.TemporaryDirectory(prefix="geowaked-bench-") as directory:
        globals()[sys.argv[1]](sys.argv[2], sys.argv[3], directory)


if __name__ == "__main__":
    main()
