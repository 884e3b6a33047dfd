#if canImport(Glibc)
import GeoWakeCore
import Glibc
#endif
import CLibGPS
import Traces

extension Fix {
    /// The fix in a TPV report that libgps has just unpacked, or nil when the report has no position
    /// (mode below 2, or NaN coordinates). `satellites` comes from the latest SKY report: a TPV carries none.
    /// `altitude` is the pre-3.20 name of altMSL, still filled from the JSON "alt" key.
    init?(tpv fix: gps_fix_t, satellites: Int?) {
        guard fix.mode >= MODE_2D, fix.latitude.isFinite, fix.longitude.isFinite else { return nil }
        self.init(
            time: fix.time.tv_sec == 0 ? nil : Timestamp(fix.time),
            coordinate: Coordinate(latitude: fix.latitude, longitude: fix.longitude),
            altitudeMSL: finite(fix.altMSL) ?? finite(fix.altitude),
            speed: finite(fix.speed),
            course: finite(fix.track),
            horizontalAccuracy: GPSDErrorEstimate.horizontalAccuracy(eph: fix.eph, epx: fix.epx, epy: fix.epy),
            mode: fix.mode >= MODE_3D ? .threeD : .twoD,
            satellites: satellites
        )
    }
}

extension Timestamp {
    /// Rounded to the nearest millisecond; gpsd keeps nanoseconds but receivers report at most milliseconds.
    init(_ time: timespec) {
        self.init(millisecondsSince1970: Int64(time.tv_sec) * 1000 + (Int64(time.tv_nsec) + 500_000) / 1_000_000)
    }
}

/// libgps marks every missing value with NaN.
private func finite(_ value: Double) -> Double? {
    value.isFinite ? value : nil
}

