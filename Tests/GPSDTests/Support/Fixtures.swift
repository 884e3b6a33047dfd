#if canImport(Glibc)
import Glibc
#endif
import GeoWakeCore
import Synchronization
import TestSupport
import GPSDTestSupport

/// gpsd's regression logs, copied into the test fixtures (see their README).
let gpsdTraces = packageRoot + "/Tests/Fixtures/gpsd"

/// Fixes gathered by a consumer task, with the instant of the last one.
final class FixCollector: Sendable {
    private let state = Mutex<(fixes: [Fix], last: ContinuousClock.Instant?)>(([], nil))

    func append(_ fix: Fix) {
        state.withLock { $0 = ($0.fixes + [fix], .now) }
    }

    var fixes: [Fix] { state.withLock { $0.fixes } }
    var count: Int { state.withLock { $0.fixes.count } }

    /// True once at least one fix came and none for `quiet` since.
    func hasSettled(quiet: Duration) -> Bool {
        state.withLock { $0.last.map { ContinuousClock.now - $0 >= quiet } ?? false }
    }
}

/// The value of `"key":` in a flat JSON object line, as text (strings without their quotes).
func jsonValue(_ key: String, in line: String) -> String? {
    guard let keyRange = line.firstRange(of: "\"\(key)\":") else { return nil }
    var rest = line[keyRange.upperBound...]
    if rest.first == "\"" {
        rest = rest.dropFirst()
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
    let end = rest.firstIndex { $0 == "," || $0 == "}" } ?? rest.endIndex
    return String(rest[..<end])
}

/// `2014-12-31T03:07:19.000Z`, the contract's time format.
func parseTime(_ text: String) -> Timestamp? {
    let digits = text.split(whereSeparator: { "-T:.Z".contains($0) }).compactMap { Int($0) }
    guard digits.count == 7 else { return nil }
    return Timestamp(year: digits[0], month: digits[1], day: digits[2], hour: digits[3], minute: digits[4],
                     second: digits[5], millisecond: digits[6])
}

/// gpsd's expected fixes for one of the shared logs: time, latitude, longitude.
func expectedFixes(_ name: String) throws -> [(time: Timestamp, latitude: Double, longitude: Double)] {
    let text = String(decoding: try readFile(gpsdTraces + "/" + name + ".expected.jsonl"), as: UTF8.self)
    return text.split(separator: "\n").compactMap { line in
        let line = String(line)
        guard let time = jsonValue("time", in: line).flatMap(parseTime),
              let latitude = jsonValue("lat", in: line).flatMap(Double.init),
              let longitude = jsonValue("lon", in: line).flatMap(Double.init) else { return nil }
        return (time, latitude, longitude)
    }
}

/// Paths of the files in `directory` whose names end in `suffix`, sorted; none when it does not exist.
func filesInDirectory(_ directory: String, suffix: String) -> [String] {
    guard let handle = opendir(directory) else { return [] }
    defer { closedir(handle) }
    var paths: [String] = []
    while let entry = readdir(handle) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        if name.hasSuffix(suffix) { paths.append(directory + "/" + name) }
    }
    return paths.sorted()
}
