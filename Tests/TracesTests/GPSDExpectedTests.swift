import GeoWakeCore
import Foundation
import Testing
@testable import Traces

/// Every real receiver capture in `Tests/Fixtures/gpsd` against what gpsd itself reported for it,
/// compared the way `Tests/Fixtures/gpsd/README.md` specifies.
@Suite struct GPSDExpectedTests {
    struct Expected {
        var millis: Int64
        var latitude, longitude: Double
        var altitudeMSL, speed, course: Double?
    }

    static func expected(_ path: String) throws -> [Expected] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let time = try #require(object["time"] as? String)
            let millis = try #require(Array(time.utf8).withUnsafeBufferPointer { ISO8601.timestamp($0) })
            return Expected(millis: millis.millisecondsSince1970,
                            latitude: try #require(object["lat"] as? Double), longitude: try #require(object["lon"] as? Double),
                            altitudeMSL: object["altMSL"] as? Double, speed: object["speed"] as? Double,
                            course: object["course"] as? Double)
        }
    }

    /// Which of the compared values disagree beyond the README's tolerances.
    static func disagreements(_ e: Expected, _ fix: Fix) -> [String] {
        var bad: [String] = []
        if abs(fix.coordinate.latitude - e.latitude) > 1e-6 || abs(fix.coordinate.longitude - e.longitude) > 1e-6 {
            bad.append("position")
        }
        if let a = e.altitudeMSL, let b = fix.altitudeMSL, abs(a - b) > 0.05 { bad.append("altMSL") }
        if let a = e.speed, let b = fix.speed, abs(a - b) > 0.02 { bad.append("speed") }
        if let a = e.course, let b = fix.course {
            let d = abs(a - b).truncatingRemainder(dividingBy: 360)
            if min(d, 360 - d) > 0.05 { bad.append("course") }
        }
        return bad
    }

    @Test func everyCaptureMatchesGpsdWithinTolerances() throws {
        let logs = try FileManager.default.contentsOfDirectory(atPath: Paths.gpsdTraces)
            .filter { $0.hasSuffix(".log") }.sorted()
        var total = 0, present = 0, agreeing = 0
        var problems: [String] = []
        var compared = 0
        for log in logs {
            let expectedPath = Paths.gpsdTraces + "/" + log.dropLast(4) + ".expected.jsonl"
            guard FileManager.default.fileExists(atPath: expectedPath) else { continue }
            compared += 1
            var ours: [Int64: Fix] = [:]
            _ = try TraceFile.read(Paths.gpsdTraces + "/" + log) { fix in
                if let t = fix.time { ours[t.millisecondsSince1970] = fix }
            }
            for e in try Self.expected(expectedPath) {
                total += 1
                guard let fix = ours[e.millis] ?? ours[e.millis - 1] ?? ours[e.millis + 1] else {
                    problems.append("\(log) \(e.millis): missing")
                    continue
                }
                present += 1
                let bad = Self.disagreements(e, fix)
                if bad.isEmpty { agreeing += 1 } else { problems.append("\(log) \(e.millis): \(bad)") }
            }
        }
        #expect(compared >= 6)
        #expect(total > 100)
        #expect(Double(present) >= 0.99 * Double(total), "\(problems.prefix(20))")
        #expect(Double(agreeing) >= 0.995 * Double(total), "\(problems.prefix(20))")
    }

    @Test func tesseoCaptureCountsItsOneBadChecksum() throws {
        let statistics = try TraceFile.read(Paths.gpsdTraces + "/st-teseo-liv4f.log") { _ in }
        #expect(statistics.checksumErrors == 1)
        #expect(statistics.malformed == 0)
        #expect(statistics.fixes == 12)
    }
}
