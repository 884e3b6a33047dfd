#!/usr/bin/env python3
"""Writes a GPX trace of the drive there and back LAPS times, one fix a second, from `geowake fixes` JSON lines on
standard input: for load runs whose setup outlasts the 20-minute drive at --speed 10.

    .build/release/geowake fixes traces/berlin-drive.nmea --quiet | Benchmarks/long_trace.py 12 > /tmp/long.gpx
"""
import datetime
import json
import sys

laps = int(sys.argv[1])
fixes = [json.loads(line) for line in sys.stdin]
start = datetime.datetime(2024, 6, 3, 23, 50, tzinfo=datetime.timezone.utc)
print("<gpx><trk><trkseg>")
second = 0
for lap in range(laps):
    for fix in fixes if lap % 2 == 0 else reversed(fixes):
        time = (start + datetime.timedelta(seconds=second)).strftime("%Y-%m-%dT%H:%M:%SZ")
        print(f'<trkpt lat="{fix["lat"]}" lon="{fix["lon"]}"><time>{time}</time></trkpt>')
        second += 1
print("</trkseg></trk></gpx>")
