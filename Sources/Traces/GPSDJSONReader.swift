import GeoWakeCore
import JSONText
/// Reads the JSON lines that `gpspipe -w` writes: one fix per TPV report with mode 2 or 3 and a
/// position; other classes (VERSION, DEVICES, WATCH, SKY, …) are read and ignored.
public struct GPSDJSONReader: Sendable {
    public private(set) var statistics = TraceStatistics(records: "reports")
    /// Whether any line was a gpsd report (had a "class" member): a file with none is not gpsd JSON.
    public private(set) var sawReport = false
    private var lines = LineFramer(maximumLine: 1 << 16)

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
        var report = TPV()
        let wellFormed = JSONScanner.members(of: line) { key, value in report.set(key, value) }
        if report.hasClass { sawReport = true }
        guard wellFormed, !report.isMalformed else {
            statistics.malformed += 1
            return
        }
        guard report.isTPV, let fix = report.fix else { return }
        emit(fix)
        statistics.fixes += 1
    }
}

/// A TPV report as it is read: its members go into the one `GPSDReport`, whose mapping makes the fix.
private struct TPV {
    var isTPV = false
    var hasClass = false
    var isMalformed = false
    var report = GPSDReport()

    mutating func set(_ key: UnsafeBufferPointer<UInt8>, _ value: JSONMemberValue) {
        switch value {
        case .string(let text):
            if key.equals("class") {
                hasClass = true
                isTPV = text.equals("TPV")
            } else if key.equals("time") {
                report.time = ISO8601.timestamp(text)
                if report.time == nil { isMalformed = true }
            }
        case .number(let x):
            // gpsd before 3.10 wrote `time` as seconds since 1970.
            if key.equals("time") { report.time = (0...1e11).contains(x) ? Timestamp(secondsSince1970: x) : nil }
            else if key.equals("mode") { report.mode = Int(exactly: x) ?? 0 }
            else if key.equals("lat") { report.latitude = x }
            else if key.equals("lon") { report.longitude = x }
            else if key.equals("altMSL") { report.altitudeMSL = x }
            else if key.equals("alt") { report.altitude = x }
            else if key.equals("speed") { report.speed = x }
            else if key.equals("track") { report.track = x }
            else if key.equals("eph") { report.eph = x }
            else if key.equals("epx") { report.epx = x }
            else if key.equals("epy") { report.epy = x }
        case .other:
            break
        }
    }

    var fix: Fix? { report.fix }
}
