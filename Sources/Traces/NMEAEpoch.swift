import GeoWakeCore

/// What the sentences of one epoch (one UTC time of day) reported, merged last-wins as gpsd merges them.
/// Unknown values are NaN or negative rather than optionals: this is written several times per sentence.
struct NMEAEpoch: Sendable {
    /// Milliseconds into the UTC day; -1 while only untimed sentences (GSA, VTG) have been seen.
    var timeOfDay: Int32 = -1
    var latitude = 0.0
    var longitude = 0.0
    var hasPosition = false
    /// A sentence of this epoch declared the fix invalid (void RMC, GGA quality 0, GLL `V`, GNS all `N`).
    var isVoid = false
    /// Already reported by `flush`: later sentences with the same time of day are not a new epoch.
    var isClosed = false
    var altitudeMSL = Double.nan
    /// Metres per second.
    var speed = Double.nan
    var course = Double.nan
    /// 1-sigma horizontal error from GST, metres.
    var gstAccuracy = Double.nan
    var hdop = Double.nan
    /// Fix type from GSA: 2 or 3, 0 when not seen.
    var gsaMode = 0
    var satellites = -1

    init(timeOfDay: Int32 = -1) {
        self.timeOfDay = timeOfDay
    }

    var isFix: Bool { hasPosition && !isVoid && !isClosed }

    /// The user-equivalent range error (1 sigma, metres) that turns HDOP into a horizontal accuracy
    /// when the receiver sends no GST: about what a single-frequency receiver without corrections
    /// achieves today (the GPS SPS performance standard's signal-in-space error plus typical
    /// ionosphere, troposphere and multipath residuals).
    static let userEquivalentRangeError = 5.0

    func fix(time: Timestamp?) -> Fix {
        var fix = Fix(time: time, coordinate: Coordinate(latitude: latitude, longitude: longitude))
        if !altitudeMSL.isNaN { fix.altitudeMSL = altitudeMSL }
        if !speed.isNaN { fix.speed = speed }
        if !course.isNaN { fix.course = course }
        if !gstAccuracy.isNaN {
            fix.horizontalAccuracy = gstAccuracy
        } else if !hdop.isNaN {
            fix.horizontalAccuracy = hdop * NMEAEpoch.userEquivalentRangeError
        }
        if gsaMode >= 2 {
            fix.mode = gsaMode == 3 ? .threeD : .twoD
        } else {
            // As gpsd: an altitude with at least four satellites (or an unknown count) is a 3D fix.
            fix.mode = !altitudeMSL.isNaN && (satellites < 0 || satellites >= 4) ? .threeD : .twoD
        }
        if satellites > 0 { fix.satellites = satellites }
        return fix
    }
}
