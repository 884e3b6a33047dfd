#!/usr/bin/env python3
"""The Python peer of `geowake replay --beacons`: reads the same JSON-lines beacon trace, decodes each
advertisement with beacontools' parse_packet (2.1.0), and runs the same beacon-region monitoring (enter on the
first sighting, exit at last seen + timeout, timers before sightings). `--decode-only` stops after decoding."""
import json, sys, time
from datetime import datetime
from beacontools import parse_packet
from beacontools.packet_types.ibeacon import IBeaconAdvertisement

def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    decode_only = "--decode-only" in sys.argv
    trace, regions_path = args[0], (args[1] if len(args) > 1 else None)
    regions = []
    if regions_path:
        for f in json.load(open(regions_path))["features"]:
            p = f.get("properties") or {}
            if p.get("kind") == "beacon":
                regions.append((f["id"], p["uuid"].lower(), p.get("major"), p.get("minor")))
    by_uuid = {}
    for r in regions:
        by_uuid.setdefault(r[1], []).append(r)
    timeout = 30.0
    inside, events, sightings = {}, 0, 0
    start = time.perf_counter()
    with open(trace) as lines:
        for line in lines:
            record = json.loads(line)
            beacon = parse_packet(bytes.fromhex(record["data"]))
            if not isinstance(beacon, IBeaconAdvertisement):
                continue
            sightings += 1
            if decode_only:
                continue
            now = datetime.fromisoformat(record["time"].replace("Z", "+00:00")).timestamp()
            for rid in [rid for rid, seen in inside.items() if seen + timeout <= now]:
                del inside[rid]
                events += 1
            for rid, uuid, major, minor in by_uuid.get(beacon.uuid, ()):
                if (major is None or major == beacon.major) and (minor is None or minor == beacon.minor):
                    if rid not in inside:
                        events += 1
                    inside[rid] = now
    seconds = time.perf_counter() - start
    print(f"{sightings} sightings, {events} events, {seconds:.3f} s", file=sys.stderr)

main()
