import GeoWakeCore

/// Parses the ISO 8601 timestamps of gpsd JSON and GPX: `2014-12-31T03:07:19.000Z`, with any number
/// of fractional digits (truncated to milliseconds) and `Z` or a `±hh:mm` offset.
package enum ISO8601 {
    package static func timestamp(_ s: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        guard s.count >= 19 else { return nil }
        func number(_ at: Int, _ digits: Int) -> Int? {
            var value = 0
            for i in at..<(at + digits) {
                let d = s[i] &- UInt8(ascii: "0")
                guard d < 10 else { return nil }
                value = value * 10 + Int(d)
            }
            return value
        }
        guard let year = number(0, 4), s[4] == UInt8(ascii: "-"), let month = number(5, 2), s[7] == UInt8(ascii: "-"),
              let day = number(8, 2), s[10] == UInt8(ascii: "T") || s[10] == UInt8(ascii: " "),
              let hour = number(11, 2), s[13] == UInt8(ascii: ":"), let minute = number(14, 2),
              s[16] == UInt8(ascii: ":"), let second = number(17, 2) else { return nil }
        var i = 19
        var millisecond = 0
        if i < s.count && s[i] == UInt8(ascii: ".") {
            i += 1
            var scale = 100
            let first = i
            while i < s.count, case let d = s[i] &- UInt8(ascii: "0"), d < 10 {
                millisecond += Int(d) * scale
                scale /= 10
                i += 1
            }
            guard i > first else { return nil }
        }
        var offsetMinutes = 0
        if i < s.count && (s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-")) {
            guard s.count - i == 6, let h = number(i + 1, 2), s[i + 3] == UInt8(ascii: ":"), let m = number(i + 4, 2),
                  h < 24, m < 60 else { return nil }
            offsetMinutes = (h * 60 + m) * (s[i] == UInt8(ascii: "-") ? -1 : 1)
            i = s.count
        } else if i < s.count && s[i] == UInt8(ascii: "Z") {
            i += 1
        }
        guard i == s.count, second < 60,
              let t = Timestamp(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                                millisecond: millisecond) else { return nil }
        return Timestamp(millisecondsSince1970: t.millisecondsSince1970 - Int64(offsetMinutes) * 60_000)
    }
}
