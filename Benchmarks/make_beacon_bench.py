#!/usr/bin/env python3
"""Writes N JSON-lines beacon sightings (flags + iBeacon, 200 beacons under 20 UUIDs, 10 ms apart) and 100 beacon
regions to the given directory, deterministically."""
import json, random, struct, sys, uuid as uuidlib
from datetime import datetime, timezone, timedelta

out, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(15)
uuids = [uuidlib.UUID(int=rng.getrandbits(128)) for _ in range(20)]
start = datetime(2026, 11, 23, tzinfo=timezone.utc)
with open(f"{out}/beacons-{n}.jsonl", "w") as f:
    for i in range(n):
        u = uuids[rng.randrange(20)]
        major, minor = rng.randrange(5), rng.randrange(2)
        data = bytes([2, 1, 6, 26, 0xFF, 0x4C, 0, 2, 0x15]) + u.bytes + struct.pack(">HHb", major, minor, -59)
        t = start + timedelta(milliseconds=10 * i)
        f.write('{"time":"%s.%03dZ","address":"C3:11:22:33:%02X:%02X","rssi":%d,"data":"%s"}\n' % (
            t.strftime("%Y-%m-%dT%H:%M:%S"), t.microsecond // 1000, major, minor, -50 - rng.randrange(40), data.hex()))
features = []
for k in range(100):
    p = {"kind": "beacon", "uuid": str(uuids[k % 20]).upper(), "major": k % 5}
    if k % 3 == 0:
        p["minor"] = k % 2
    features.append({"type": "Feature", "id": f"b{k:03d}", "geometry": None, "properties": p})
json.dump({"type": "FeatureCollection", "features": features}, open(f"{out}/beacon-regions-100.geojson", "w"))
