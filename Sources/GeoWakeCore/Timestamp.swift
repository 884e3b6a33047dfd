/// A UTC instant with millisecond resolution, the resolution of every format geowake reads and writes.
///
/// Not `Foundation.Date`: services compare and subtract instants millions of times a second, and the
/// contract prints exactly three fractional digits, so an integer count of milliseconds is both faster
/// and free of rounding surprises.
public struct Timestamp: Hashable, Comparable, Sendable {
    public var millisecondsSince1970: Int64

    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    public init(secondsSince1970: Double) {
        self.millisecondsSince1970 = Int64((secondsSince1970 * 1000).rounded())
    }

    /// A civil UTC date and time; returns nil when a field is out of range.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, millisecond: Int = 0) {
        guard (1...12).contains(month), (1...Timestamp.daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              (0...999).contains(millisecond) else { return nil }
        let days = Int64(Timestamp.daysFromCivil(year: year, month: month, day: day))
        let seconds = ((days * 24 + Int64(hour)) * 60 + Int64(minute)) * 60 + Int64(second)
        self.millisecondsSince1970 = seconds * 1000 + Int64(millisecond)
    }

    public var secondsSince1970: Double { Double(millisecondsSince1970) / 1000 }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.millisecondsSince1970 < b.millisecondsSince1970 }

    /// Seconds from `b` to `a`.
    public static func - (a: Timestamp, b: Timestamp) -> Double {
        Double(a.millisecondsSince1970 - b.millisecondsSince1970) / 1000
    }

    public static func + (a: Timestamp, seconds: Double) -> Timestamp {
        Timestamp(millisecondsSince1970: a.millisecondsSince1970 + Int64((seconds * 1000).rounded()))
    }

    /// Broken-down UTC fields of this instant.
    public var civil: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
        let ms = millisecondsSince1970
        var days = ms / 86_400_000
        var msOfDay = ms % 86_400_000
        if msOfDay < 0 { msOfDay += 86_400_000; days -= 1 }
        let (y, m, d) = Timestamp.civilFromDays(Int(days))
        let ofDay = Int(msOfDay)
        return (y, m, d, ofDay / 3_600_000, ofDay / 60_000 % 60, ofDay / 1000 % 60, ofDay % 1000)
    }

    public static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public static func civilFromDays(_ z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
