import Foundation
import Testing

/// The HTML page of the bundled Berlin replay, loaded by a real headless chromium and screenshot to a PNG.
@Suite struct MapBrowserTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test("The Berlin replay's map page loads in chromium without console errors, and the track's colours are where the track runs")
    func pageRendersTrack() throws {
        let chromium = try #require(Self.chromium, "chromium is not installed: run scripts/install-deps --test")
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let page = dir + "/berlin.html", png = dir + "/berlin.png"
        let replay = try CommandRunner.run(CommandRunner.geowake, ["replay", "--regions", "regions/berlin-1k.geojson",
                                                                   "traces/berlin-drive.nmea", "--map", page])
        #expect(replay.status == 0, "\(replay.error)")
        let html = try String(contentsOfFile: page, encoding: .utf8)

        let shot = try CommandRunner.run(chromium, [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
            "--window-size=1200,800", "--enable-logging=stderr", "--v=0", "--user-data-dir=\(dir)/profile",
            "--screenshot=\(png)", "file://\(page)",
        ])
        #expect(FileManager.default.fileExists(atPath: png), "no screenshot: \(shot.error)")
        let consoleLines = shot.error.split(separator: "\n").filter { $0.contains("CONSOLE") || $0.contains("Uncaught") }
        #expect(consoleLines.isEmpty, "console messages: \(consoleLines)")

        let samples = Self.trackSamples(html)
        #expect(samples.count >= 20, "\(samples.count) track samples")
        let script = dir + "/check.py", list = dir + "/samples.txt"
        try Self.pixelCheck.write(toFile: script, atomically: true, encoding: .utf8)
        try samples.map { "\($0.x) \($0.y) \($0.colour)" }.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let check = try CommandRunner.run("/usr/bin/python3", [script, png, list])
        #expect(check.status == 0, "\(check.error)")
        let counts = check.output.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        // Event labels (white-haloed text) cover some; a blank or misplaced picture finds next to none (here 123 of 145).
        #expect(counts.count == 2 && counts[0] * 4 >= counts[1] * 3, "track colour found at \(check.output) samples")
    }

    /// Points every 5 px along the drawn track's segments, with the colour each is stroked in, away from the
    /// event markers and the legend that may cover them.
    static func trackSamples(_ html: String) -> [(x: Int, y: Int, colour: String)] {
        var markers: [(Double, Double)] = []
        for tag in html.components(separatedBy: "<g class=\"event").dropFirst() {
            let circle = tag.components(separatedBy: "<circle ").dropFirst().first ?? ""
            let numbers = ["cx", "cy"].compactMap { attribute($0, in: circle).flatMap(Double.init) }
            if numbers.count == 2 { markers.append((numbers[0], numbers[1])) }
        }
        var samples: [(x: Int, y: Int, colour: String)] = []
        for tag in html.components(separatedBy: "<polyline ").dropFirst() {
            guard let colour = attribute("stroke", in: tag), let points = attribute("points", in: tag) else { continue }
            let p = points.split(separator: " ").map { $0.split(separator: ",").compactMap { Double($0) } }.filter { $0.count == 2 }
            for (a, b) in zip(p, p.dropFirst()) {
                let length = ((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1])).squareRoot()
                // Not the ends: a neighbouring run of another colour is drawn over them.
                for t in stride(from: 3.0, through: length - 3, by: 5) {
                    let x = a[0] + (b[0] - a[0]) * t / length, y = a[1] + (b[1] - a[1]) * t / length
                    let nearMarker = markers.contains { abs($0.0 - x) < 12 && abs($0.1 - y) < 12 }
                    let inLegend = x < 250 && y < 150
                    if !nearMarker, !inLegend, x > 2, y > 2, x < 1198, y < 798 {
                        samples.append((Int(x.rounded()), Int(y.rounded()), colour))
                    }
                }
            }
        }
        return samples
    }

    /// The value of `name` in the tag that `tag` begins, i.e. before its first ">".
    static func attribute(_ name: String, in tag: String) -> String? {
        let tag = " " + (tag.split(separator: ">", maxSplits: 1).first ?? "")
        guard let start = tag.range(of: " \(name)=\"") else { return nil }
        let rest = tag[start.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// Decodes the PNG with the standard library (zlib and the five row filters) and counts the samples
    /// with a pixel of their colour within a pixel of them; prints "found total".
    static let pixelCheck = #"""
    import struct, sys, zlib
    data = open(sys.argv[1], "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour_type = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert depth == 8 and colour_type in (2, 6), "unexpected PNG format %d/%d" % (depth, colour_type)
    bpp = 3 if colour_type == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line); prev = line
    found = total = 0
    for entry in open(sys.argv[2]).read().split("\n"):
        x, y, colour = entry.split()
        x, y = int(x), int(y)
        want = [int(colour[k:k + 2], 16) for k in (1, 3, 5)]
        total += 1
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if 0 <= x + dx < width and 0 <= y + dy < height:
                    px = rows[y + dy][(x + dx) * bpp:(x + dx) * bpp + 3]
                    if sum(abs(px[k] - want[k]) for k in range(3)) <= 30:
                        found += 1; break
            else:
                continue
            break
    print(found, total)
    """#
}
