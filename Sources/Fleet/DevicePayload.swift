import GeoWakeCore
import JSONLines
import JSONText
import Traces

/// What one message on a device's subject carries: geowake's fix line, a gpsd TPV report, or an OwnTracks
/// `_type: location` message. The format is told by its keys (`class` for gpsd, `_type` for OwnTracks).
public enum DevicePayload {
    public enum Reading: Equatable {
        case fix(Fix)
        /// A well-formed message that is not a position (an OwnTracks `lwt`, a gpsd `SKY`): skipped, not an error.
        case notAFix
        case malformed(String)
    }

    public static func read(_ payload: UnsafeRawBufferPointer) -> Reading {
        let line = payload.bindMemory(to: UInt8.self)
        var members = Members()
        guard JSONScanner.members(of: line, { members.set($0, $1) }) else { return .malformed("not a JSON object") }
        if members.hasClass { return tpv(line) }
        if let type = members.ownTracksType { return type == "location" ? members.ownTracksFix : .notAFix }
        return members.fixLine
    }

    /// gpsd's own reader, fed the one line.
    static func tpv(_ line: UnsafeBufferPointer<UInt8>) -> Reading {
        var reader = GPSDJSONReader()
        var fix: Fix?
        reader.consume(UnsafeRawBufferPointer(line)) { fix = $0 }
        reader.finish { fix = $0 }
        if let fix { return .fix(fix) }
        return reader.statistics.malformed > 0 ? .malformed("malformed gpsd report") : .notAFix
    }

    /// A fix as a payload: `geowake fixes`' keys, numbers in Swift's shortest form that reads back exactly, so
    /// that a worker feeds its services the very fix the publisher read.
    public static func fixLine(_ fix: Fix, into writer: inout JSONLineWriter) {
        writer.beginObject()
        if let time = fix.time { writer.field("time", time) }
        writer.field("lat", exactly: fix.coordinate.latitude)
        writer.field("lon", exactly: fix.coordinate.longitude)
        if let altitude = fix.altitudeMSL { writer.field("altMSL", exactly: altitude) }
        if let speed = fix.speed { writer.field("speed", exactly: speed) }
        if let course = fix.course { writer.field("course", exactly: course) }
        if let accuracy = fix.horizontalAccuracy { writer.field("hAcc", exactly: accuracy) }
        writer.field("mode", fix.mode.rawValue)
        if let satellites = fix.satellites { writer.field("sats", satellites) }
        writer.endObject()
    }
}

/// The members of any of the three payloads that make a fix.
private struct Members {
    var hasClass = false
    var ownTracksType: String?
    var timeText: Timestamp?
    var badTime = false
    var seconds: Double?
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    var speed: Double?
    var course: Double?
    var accuracy: Double?
    var mode: Int?
    var satellites: Int?
    /// OwnTracks' names: `vel` in km/h, `cog`, `acc`, `alt`.
    var velocity: Double?

    /// Keys are told apart by their first byte before any is compared whole: a fix line has eight or nine members,
    /// and comparing each key against the whole list was a sixth of reading a payload.
    mutating func set(_ key: UnsafeBufferPointer<UInt8>, _ value: JSONMemberValue) {
        guard let first = key.first else { return }
        switch value {
        case .string(let text):
            switch first {
            case UInt8(ascii: "c"): if key.equals("class") { hasClass = true }
            case UInt8(ascii: "_"): if key.equals("_type") { ownTracksType = String(decoding: text, as: UTF8.self) }
            case UInt8(ascii: "t"):
                if key.equals("time") {
                    timeText = ISO8601.timestamp(text)
                    badTime = timeText == nil
                }
            default: break
            }
        case .number(let x):
            switch first {
            case UInt8(ascii: "l"):
                if key.equals("lat") { latitude = x } else if key.equals("lon") { longitude = x }
            case UInt8(ascii: "t"): if key.equals("tst") { seconds = x }
            case UInt8(ascii: "a"):
                if key.equals("altMSL") || key.equals("alt") { altitude = x } else if key.equals("acc") { accuracy = x }
            case UInt8(ascii: "s"):
                if key.equals("speed") { speed = x } else if key.equals("sats") { satellites = Int(exactly: x) }
            case UInt8(ascii: "v"): if key.equals("vel") { velocity = x }
            case UInt8(ascii: "c"): if key.equals("course") || key.equals("cog") { course = x }
            case UInt8(ascii: "h"): if key.equals("hAcc") { accuracy = x }
            case UInt8(ascii: "m"): if key.equals("mode") { mode = Int(exactly: x) }
            default: break
            }
        case .other:
            break
        }
    }

    var fixLine: DevicePayload.Reading {
        guard !badTime else { return .malformed("time is not ISO 8601") }
        guard let time = timeText else { return .malformed("no time") }
        return fix(time: time, mode: mode == 3 ? .threeD : .twoD)
    }

    var ownTracksFix: DevicePayload.Reading {
        guard let seconds, (0...1e11).contains(seconds) else { return .malformed("no tst (seconds since 1970)") }
        var reading = self
        reading.speed = velocity.map { $0 / 3.6 }
        return reading.fix(time: Timestamp(secondsSince1970: seconds), mode: altitude == nil ? .twoD : .threeD)
    }

    private func fix(time: Timestamp, mode: Fix.Mode) -> DevicePayload.Reading {
        guard let latitude, let longitude else { return .malformed("no lat and lon") }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else { return .malformed("lat or lon out of range") }
        if let accuracy, !(accuracy >= 0) { return .malformed("negative accuracy") }
        return .fix(Fix(time: time, coordinate: coordinate, altitudeMSL: altitude, speed: speed, course: course,
                        horizontalAccuracy: accuracy, mode: mode, satellites: satellites))
    }
}
