import GeoWakeCore

/// The date half of NMEA time. Only RMC (`ddmmyy`) and ZDA (`dd,mm,yyyy`) carry a date; every other
/// sentence has a time of day only, so the date is carried from epoch to epoch and across midnight.
///
/// No GPS-week-rollover guess is applied: a receiver whose firmware reports a date 1024 weeks early
/// is reported as it is. gpsd's own guess is exactly what the gpsd test fixtures' expected outputs had to
/// undo, and the guess silently corrupts correct old logs; a consumer that knows its receiver is affected can shift times.
struct NMEACalendar: Sendable {
    /// Days since 1970-01-01 of the current epoch; nil until RMC or ZDA supplied a date.
    private(set) var day: Int?
    private var lastTimeOfDay: Int32 = -1
    /// The last four-digit year from ZDA, to place RMC's two-digit years in the right century.
    private(set) var referenceYear: Int?

    /// A new epoch at `timeOfDay`: a time of day more than half a day earlier than the previous one
    /// means midnight has passed (a later RMC or ZDA confirms or corrects the date).
    mutating func advance(to timeOfDay: Int32) {
        if let d = day, lastTimeOfDay >= 0, timeOfDay < lastTimeOfDay - 43_200_000 { day = d + 1 }
        lastTimeOfDay = timeOfDay
    }

    /// The date at `timeOfDay`, applied to the current epoch: a ZDA stamped just after midnight
    /// for an epoch just before it (or the other way round) is a day off, so the day is shifted.
    mutating func setDay(_ dayNumber: Int, at timeOfDay: Int32, zdaYear: Int? = nil) {
        var aligned = dayNumber
        if lastTimeOfDay < 0 {
            lastTimeOfDay = timeOfDay
        } else if lastTimeOfDay - timeOfDay > 43_200_000 {
            aligned -= 1   // the epoch is before midnight, the ZDA after
        } else if timeOfDay - lastTimeOfDay > 43_200_000 {
            aligned += 1   // the ZDA is before midnight, the epoch after
        }
        day = aligned
        if let zdaYear { referenceYear = zdaYear }
    }

    /// Days since 1970 of a calendar date, or nil when the day does not exist in that month.
    static func dayNumber(year: Int, month: Int, day: Int) -> Int? {
        guard (1...12).contains(month), day >= 1, day <= Timestamp.daysIn(month: month, year: year) else { return nil }
        return Timestamp.daysFromCivil(year: year, month: month, day: day)
    }

    /// RMC's two-digit year: within 50 years of the last ZDA year when there was one, otherwise
    /// 1980–2079 (GPS time starts in 1980; gpsd wraps at 2080 the same way).
    func fullYear(twoDigit yy: Int) -> Int {
        guard let reference = referenceYear else { return yy < 80 ? 2000 + yy : 1900 + yy }
        var year = reference - reference % 100 + yy
        if year > reference + 50 { year -= 100 } else if year <= reference - 50 { year += 100 }
        return year
    }

    /// The day number of RMC's `ddmmyy`, or nil when that day does not exist.
    func dayNumber(_ date: (day: Int, month: Int, year: Int)) -> Int? {
        NMEACalendar.dayNumber(year: fullYear(twoDigit: date.year), month: date.month, day: date.day)
    }

    func timestamp(timeOfDay: Int32) -> Timestamp? {
        guard let day, timeOfDay >= 0 else { return nil }
        return Timestamp(millisecondsSince1970: Int64(day) * 86_400_000 + Int64(timeOfDay))
    }
}
