#if canImport(Glibc)
import GeoWakeCore
import Glibc
#endif
import CLibGPS
import Traces

extension GPSDReport {
    /// A TPV report as libgps has just unpacked it, NaN for every missing value; `altitude` is the pre-3.20
    /// name of altMSL, still filled from the JSON "alt" key. Its `fix` is made by the same mapping as a report
    /// read from a gpsd JSON file.
    init(tpv fix: gps_fix_t, satellites: Int?) {
        self.init(mode: Int(fix.mode), time: fix.time.tv_sec == 0 ? nil : Timestamp(fix.time),
                  latitude: fix.latitude, longitude: fix.longitude, altitudeMSL: fix.altMSL, altitude: fix.altitude,
                  speed: fix.speed, track: fix.track, eph: fix.eph, epx: fix.epx, epy: fix.epy, satellites: satellites)
    }
}

extension Fix {
    /// The fix in a TPV report that libgps has just unpacked, or nil when the report has no position.
    init?(tpv fix: gps_fix_t, satellites: Int?) {
        guard let made = GPSDReport(tpv: fix, satellites: satellites).fix else { return nil }
        self = made
    }
}

extension Timestamp {
    /// Truncated to the millisecond, as the gpsd JSON reader (`ISO8601`) reads the same report's time; libgps
    /// parses the text's fraction exactly into nanoseconds.
    init(_ time: timespec) {
        self.init(millisecondsSince1970: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
    }
}
