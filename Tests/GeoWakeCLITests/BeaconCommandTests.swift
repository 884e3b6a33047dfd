import Foundation
import Testing
import TestSupport

/// The built `geowake` on the bundled beacon trace and regions, as a user runs it.
@Suite struct BeaconCommandTests {
    /// Status, standard output as text and standard-error lines, through the CLI tests' one runner.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: [String]) {
        let run = try CommandLineTests.run(arguments)
        return (run.status, String(decoding: run.output, as: UTF8.self), run.errorLines)
    }

    @Test("geowake beacons prints the same sightings from the btsnoop trace as from its JSON-lines twin")
    func btsnoopTwin() throws {
        let lines = try Self.run(["beacons", "traces/beacons-shop.jsonl"])
        let snoop = try Self.run(["beacons", "traces/beacons-shop.btsnoop"])
        #expect(lines.status == 0 && snoop.status == 0)
        #expect(lines.output.split(separator: "\n").count == 736)
        #expect(lines.output == snoop.output)
    }

    @Test("replay --beacons prints the contract's enter and exit lines; exits pending at the end need --flush")
    func replayMonitoring() throws {
        // With a 60 s timeout the till's exit falls due after the trace's last sighting.
        let arguments = ["replay", "--beacons", "traces/beacons-shop.btsnoop", "--regions", "regions/beacons.geojson",
                         "--beacon-exit-timeout", "60"]
        let plain = try Self.run(arguments)
        let flushed = try Self.run(arguments + ["--flush"])
        let first = try #require(plain.output.split(separator: "\n").first)
        #expect(first == #"{"event":"enter","region":"shop-entrance","time":"2026-11-23T10:00:00.000Z","beacon":{"uuid":"f7826da6-4fa2-4e98-8024-bc5b71e0893e","major":1,"minor":0}}"#)
        #expect(plain.output.split(separator: "\n").count == 5)
        #expect(flushed.output.split(separator: "\n").count == 6)
        #expect(flushed.output.contains(#"{"event":"exit","region":"till","time":"2026-11-23T10:04:19.800Z""#))
        #expect(!plain.output.contains(#""exit","region":"till""#))
        #expect(!plain.output.contains("till-as-ibeacon"))
    }

    @Test("--beacon-exit-timeout moves the exit: a 5 s timeout exits the entrance at its last sighting + 5 s")
    func exitTimeoutOption() throws {
        let run = try Self.run(["replay", "--beacons", "traces/beacons-shop.jsonl", "--regions", "regions/beacons.geojson",
                                "--beacon-exit-timeout", "5"])
        #expect(run.output.contains(#"{"event":"exit","region":"shop-entrance","time":"2026-11-23T10:02:34.700Z""#))
    }

    /// The bundled trace's first entrance sighting, then advertisements that are no beacon: flags and a name, and
    /// Apple's own manufacturer data that is not an iBeacon (company 4C 00, type 0x10, as iPhones send).
    static func entranceThenOtherAdvertisements(lastAt: String) -> String {
        let entrance = "0201061aff4c000215f7826da64fa24e988024bc5b71e0893e00010000c5"
        let named = "0201060809" + "67656f77616b65"
        let nearby = "02011a0aff4c001005031c0b4d2f"
        func line(_ time: String, _ address: String, _ data: String) -> String {
            #"{"time":"2026-11-23T10:\#(time)Z","address":"\#(address)","rssi":-60,"data":"\#(data)"}"# + "\n"
        }
        return line("00:00.000", "C3:11:22:33:44:01", entrance) + line("00:10.000", "D0:00:00:00:00:07", named)
            + line("00:20.000", "6A:12:34:56:78:9A", nearby) + line(lastAt, "D0:00:00:00:00:07", named)
    }

    /// One region, the entrance's beacon by UUID and major.
    static func entranceRegion(in directory: TemporaryDirectory) -> String {
        directory.write("entrance.geojson", #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"entrance","geometry":null,"properties":{"kind":"beacon","uuid":"f7826da6-4fa2-4e98-8024-bc5b71e0893e","major":1}}]}"#)
    }

    @Test("A beacon exit falls due when any later line passes it, though only non-beacon advertisements follow")
    func exitDueBetweenOtherAdvertisements() throws {
        let directory = TemporaryDirectory()
        let trace = directory.write("others.jsonl", Self.entranceThenOtherAdvertisements(lastAt: "00:31.000"))
        let run = try Self.run(["replay", "--beacons", trace, "--regions", Self.entranceRegion(in: directory)])
        #expect(run.status == 0)
        #expect(run.output.split(separator: "\n") == [
            #"{"event":"enter","region":"entrance","time":"2026-11-23T10:00:00.000Z","beacon":{"uuid":"f7826da6-4fa2-4e98-8024-bc5b71e0893e","major":1,"minor":0}}"#,
            #"{"event":"exit","region":"entrance","time":"2026-11-23T10:00:30.000Z","beacon":{"uuid":"f7826da6-4fa2-4e98-8024-bc5b71e0893e","major":1,"minor":0}}"#,
        ])
        #expect(run.errors.first?.contains("1 exit, 1 enter") == true, "\(run.errors)")
    }

    @Test("An exit due after the trace's last line, beacon or not, still needs --flush")
    func exitAfterLastLineNeedsFlush() throws {
        let directory = TemporaryDirectory()
        let trace = directory.write("others.jsonl", Self.entranceThenOtherAdvertisements(lastAt: "00:29.999"))
        let arguments = ["replay", "--beacons", trace, "--regions", Self.entranceRegion(in: directory)]
        let plain = try Self.run(arguments)
        let flushed = try Self.run(arguments + ["--flush"])
        #expect(plain.output.split(separator: "\n").count == 1)
        #expect(!plain.output.contains(#""event":"exit""#))
        #expect(flushed.output.contains(#"{"event":"exit","region":"entrance","time":"2026-11-23T10:00:30.000Z""#))
    }

    @Test("--service ranging reports each beacon once a second; the uncalibrated beacon has distance null")
    func ranging() throws {
        let run = try Self.run(["replay", "--service", "ranging", "--beacons", "traces/beacons-shop.jsonl"])
        #expect(run.status == 0)
        #expect(run.output.contains(#""major":3,"minor":3,"rssi":-87,"distance":null,"proximity":"unknown"}"#))
        #expect(run.output.split(separator: "\n").allSatisfy { $0.hasPrefix(#"{"event":"range","time":"#) })
    }

    @Test("Scanning live without an adapter, or without permission, is one clear error line")
    func liveWithoutAdapter() throws {
        let run = try Self.run(["beacons", "--live", "hci0"])
        #expect(run.status != 0)
        #expect(run.errors.count == 1, "\(run.errors)")
        let line = try #require(run.errors.first)
        #expect(line.hasPrefix("Error: hci0: "))
        #expect(["no Bluetooth support", "no such Bluetooth adapter", "no permission to scan", "adapter is down"]
            .contains { line.contains($0) }, "\(line)")
    }

    @Test("Bad beacon input is one error line naming what and where",
          arguments: [
              (["replay", "--beacons", "traces/no-such.jsonl", "--regions", "regions/beacons.geojson"], "traces/no-such.jsonl"),
              (["replay", "--beacons", "traces/beacons-shop.jsonl", "--regions", "regions/berlin-1k.geojson"], "no beacon regions"),
              (["replay", "--beacons", "traces/beacons-shop.jsonl", "--regions", "regions/beacons.geojson",
                "--beacon-exit-timeout", "-1"], "--beacon-exit-timeout"),
              (["beacons", "--live", "bluetooth0"], "bluetooth0"),
              (["beacons", "Package.swift"], "Package.swift"),
          ])
    func badInput(arguments: [String], named: String) throws {
        let run = try Self.run(arguments)
        if arguments == ["beacons", "Package.swift"] {
            // Not a trace: every line is counted as malformed and the summary says so.
            #expect(run.status == 0)
            #expect(run.errors.first?.contains("0 beacon sightings") == true)
            return
        }
        #expect(run.status != 0)
        #expect(run.errors.count == 1, "\(run.errors)")
        #expect(run.errors.first?.contains(named) == true, "\(run.errors)")
    }

    @Test("A beacon region file with a bad uuid names the file and feature index")
    func badRegion() throws {
        let path = NSTemporaryDirectory() + "bad-beacon-\(getpid()).geojson"
        try #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"x","geometry":null,"properties":{"kind":"beacon","uuid":"nope"}}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try Self.run(["replay", "--beacons", "traces/beacons-shop.jsonl", "--regions", path])
        #expect(run.status != 0)
        #expect(run.errors == ["Error: \(path): feature 0: beacon uuid \"nope\" is not of the form 8-4-4-4-12 hexadecimal digits"])
    }
}
