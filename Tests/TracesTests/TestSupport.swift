import GeoWakeCore
import Foundation
@testable import Traces
import TestSupport

/// The package root and the test fixtures in it, found from this file so tests run from any directory.
enum Paths {
    static let root = packageRoot
    static let gpsdTraces = root + "/Tests/Fixtures/gpsd"
    static let traces = root + "/traces"
}

/// `$BODY*HH` with the correct checksum and CRLF.
func sentence(_ body: String) -> String {
    let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
    let hex = String(sum, radix: 16, uppercase: true)
    return "$" + body + "*" + (hex.count == 1 ? "0" + hex : hex) + "\r\n"
}

/// Runs the NMEA reader over `bytes` fed in chunks of `chunk` bytes (all at once when nil).
func readNMEA(_ bytes: [UInt8], chunk: Int? = nil) -> (fixes: [Fix], statistics: TraceStatistics) {
    var reader = NMEAReader()
    var fixes: [Fix] = []
    let size = max(chunk ?? bytes.count, 1)
    var start = 0
    while start < bytes.count {
        let end = min(start + size, bytes.count)
        bytes[start..<end].withUnsafeBytes { reader.consume($0) { fixes.append($0) } }
        start = end
    }
    reader.finish { fixes.append($0) }
    return (fixes, reader.statistics)
}

func readNMEA(_ text: String, chunk: Int? = nil) -> (fixes: [Fix], statistics: TraceStatistics) {
    readNMEA(Array(text.utf8), chunk: chunk)
}

/// Runs the format-detecting reader over `text`.
func readTrace(_ text: String, format: TraceFormat? = nil) throws -> (fixes: [Fix], statistics: TraceStatistics) {
    var reader = TraceReader(format: format)
    var fixes: [Fix] = []
    try Array(text.utf8).withUnsafeBytes { try reader.consume($0) { fixes.append($0) } }
    try reader.finish { fixes.append($0) }
    return (fixes, reader.statistics)
}

func timestamp(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0,
               _ millisecond: Int = 0) -> Timestamp {
    Timestamp(year: year, month: month, day: day, hour: hour, minute: minute, second: second, millisecond: millisecond)!
}

/// The ranges every emitted fix must respect, whatever the input.
func isPlausible(_ fix: Fix) -> Bool {
    guard fix.coordinate.isValid else { return false }
    if let a = fix.altitudeMSL, !(a.isFinite && (-1_000...100_000).contains(a)) { return false }
    if let s = fix.speed, !(s.isFinite && (0...1_100).contains(s)) { return false }
    if let c = fix.course, !(c.isFinite && c >= 0 && c < 360) { return false }
    if let h = fix.horizontalAccuracy, !(h.isFinite && h > 0) { return false }
    if let n = fix.satellites, !(1...99).contains(n) { return false }
    return true
}
