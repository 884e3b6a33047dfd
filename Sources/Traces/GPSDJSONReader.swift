import GeoWakeCore
import JSONText
/// Reads the JSON lines that `gpspipe -w` writes: one fix per TPV report with mode 2 or 3 and a
/// position, with the count of satellites used from the latest SKY report, as libgps gives it to the live source;
/// other classes (VERSION, DEVICES, WATCH, …) are read and ignored.
public struct GPSDJSONReader: Sendable {
    public private(set) var statistics = TraceStatistics(records: "reports")
    /// Whether any line was a gpsd report (had a "class" member): a file with none is not gpsd JSON.
    public private(set) var sawReport = false
    private var lines = LineFramer(maximumLine: 1 << 16)
    /// The satellites the latest SKY's list marks used; nil before one, or when it listed none used.
    private var satellitesUsed: Int?

    public init() {}

    public mutating func consume(_ bytes: UnsafeRawBufferPointer, _ emit: (Fix) -> Void) {
        // Moved out while in use, so the closure may mutate `self` and the carry stays uniquely owned.
        var splitter = lines
        lines = LineFramer(maximumLine: 0)
        splitter.split(bytes) { line(line: $0, emit) }
        lines = splitter
    }

    public mutating func finish(_ emit: (Fix) -> Void) {
        var splitter = lines
        lines = LineFramer(maximumLine: 0)
        splitter.finish { line(line: $0, emit) }
        lines = splitter
    }

    private mutating func line(line: UnsafeBufferPointer<UInt8>?, _ emit: (Fix) -> Void) {
        guard let line else {
            statistics.sentences += 1
            statistics.malformed += 1
            return
        }
        guard let first = line.first(where: { $0 > UInt8(ascii: " ") }), first != UInt8(ascii: "#") else { return }
        statistics.sentences += 1
        var report = Report()
        let wellFormed = JSONScanner.members(of: line) { key, value in report.set(key, value) }
        if report.hasClass { sawReport = true }
        guard wellFormed, !report.isMalformed else {
            statistics.malformed += 1
            return
        }
        if report.isSKY { satellitesUsed = report.satellitesUsed > 0 ? report.satellitesUsed : nil }
        report.tpv.satellites = satellitesUsed
        guard report.isTPV, let fix = report.tpv.fix else { return }
        emit(fix)
        statistics.fixes += 1
    }
}

/// A report as it is read: a TPV's members go into the one `GPSDReport`, whose mapping makes the fix; a SKY's
/// satellites marked used are counted, as libgps counts them (it ignores `uSat` alone).
private struct Report {
    var isTPV = false
    var isSKY = false
    var hasClass = false
    var isMalformed = false
    var tpv = GPSDReport()
    var satellitesUsed = 0

    mutating func set(_ key: UnsafeBufferPointer<UInt8>, _ value: JSONMemberValue) {
        switch value {
        case .string(let text):
            if key.equals("class") {
                hasClass = true
                isTPV = text.equals("TPV")
                isSKY = text.equals("SKY")
            } else if key.equals("time") {
                tpv.time = ISO8601.timestamp(text)
                if tpv.time == nil { isMalformed = true }
            }
        case .number(let x):
            // gpsd before 3.10 wrote `time` as seconds since 1970.
            if key.equals("time") { tpv.time = (0...1e11).contains(x) ? Timestamp(secondsSince1970: x) : nil }
            else if key.equals("mode") { tpv.mode = Int(exactly: x) ?? 0 }
            else if key.equals("lat") { tpv.latitude = x }
            else if key.equals("lon") { tpv.longitude = x }
            else if key.equals("altMSL") { tpv.altitudeMSL = x }
            else if key.equals("alt") { tpv.altitude = x }
            else if key.equals("speed") { tpv.speed = x }
            else if key.equals("track") { tpv.track = x }
            else if key.equals("eph") { tpv.eph = x }
            else if key.equals("epx") { tpv.epx = x }
            else if key.equals("epy") { tpv.epy = x }
        case .other(let text):
            if key.equals("satellites") { satellitesUsed = Self.usedSatellites(text) }
        }
    }

    /// How many of a SKY's satellites say `"used":true`.
    static func usedSatellites(_ list: UnsafeBufferPointer<UInt8>) -> Int {
        var used = 0
        _ = JSONScanner.elements(of: list) { satellite in
            _ = JSONScanner.members(of: satellite) { key, value in
                if key.equals("used"), case .other(let flag) = value, flag.equals("true") { used += 1 }
            }
        }
        return used
    }
}
