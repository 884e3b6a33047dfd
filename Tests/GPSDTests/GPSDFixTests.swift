import GeoWakeCore
import CLibGPS
import Traces
@testable import GPSD
import Testing

/// The conversion of libgps' unpacked TPV to a Fix, on values built by hand.
@Suite struct GPSDFixTests {
    /// A TPV as libgps leaves it when the JSON carried none of the optional keys: NaN everywhere.
    static func emptyTPV(mode: Int32) -> gps_fix_t {
        var fix = gps_fix_t()
        fix.mode = mode
        for keyPath: WritableKeyPath<gps_fix_t, Double> in [\.latitude, \.longitude, \.altitude, \.altMSL, \.altHAE,
                                                               \.speed, \.track, \.eph, \.epx, \.epy] {
            fix[keyPath: keyPath] = .nan
        }
        return fix
    }

    @Test("A 3D TPV with every value becomes a full fix, time truncated to the millisecond as the file reader reads it")
    func fullTPV() throws {
        var tpv = Self.emptyTPV(mode: MODE_3D)
        tpv.time = timespec(tv_sec: 1_419_995_239, tv_nsec: 999_600_000)
        tpv.latitude = -37.784788333
        tpv.longitude = 175.314896667
        tpv.altMSL = 59.9
        tpv.altitude = 1000
        tpv.speed = 0.355
        tpv.track = 181.39
        tpv.eph = 19.6
        let fix = try #require(Fix(tpv: tpv, satellites: 8))
        #expect(fix.time == Timestamp(millisecondsSince1970: 1_419_995_239_999))
        #expect(fix.coordinate == Coordinate(latitude: -37.784788333, longitude: 175.314896667))
        #expect(fix.altitudeMSL == 59.9)
        #expect(fix.speed == 0.355)
        #expect(fix.course == 181.39)
        #expect(abs(try #require(fix.horizontalAccuracy) - 10) < 1e-9, "gpsd's 95% eph as a 1-sigma radius")
        #expect(fix.mode == .threeD)
        #expect(fix.satellites == 8)
    }

    @Test("Missing values stay missing; without eph the accuracy comes from epx and epy")
    func sparseTPV() throws {
        var tpv = Self.emptyTPV(mode: MODE_2D)
        tpv.latitude = 52.52
        tpv.longitude = 13.4
        tpv.epx = 3 * 1.96
        tpv.epy = 4 * 1.96
        let fix = try #require(Fix(tpv: tpv, satellites: nil))
        #expect(fix.time == nil)
        #expect(fix.altitudeMSL == nil && fix.speed == nil && fix.course == nil && fix.satellites == nil)
        #expect(abs(try #require(fix.horizontalAccuracy) - 5) < 1e-9)
        #expect(fix.mode == .twoD)
    }

    @Test("Before 3.20 libgps filled only the old altitude field")
    func altitudeFallback() throws {
        var tpv = Self.emptyTPV(mode: MODE_3D)
        tpv.latitude = 1
        tpv.longitude = 2
        tpv.altitude = 42
        #expect(try #require(Fix(tpv: tpv, satellites: nil)).altitudeMSL == 42)
    }

    @Test("No position, no fix: mode 1, mode 0, or NaN coordinates")
    func reportsWithoutPosition() {
        var noFix = Self.emptyTPV(mode: MODE_NO_FIX)
        noFix.latitude = 1
        noFix.longitude = 2
        #expect(Fix(tpv: noFix, satellites: 5) == nil)
        #expect(Fix(tpv: Self.emptyTPV(mode: MODE_NOT_SEEN), satellites: nil) == nil)
        #expect(Fix(tpv: Self.emptyTPV(mode: MODE_3D), satellites: nil) == nil)
    }

    /// The fix a gpsd JSON line gives in `replay`, read by the trace reader.
    static func fileFix(_ line: String) -> Fix? {
        var reader = GPSDJSONReader()
        var fixes: [Fix] = []
        Array((line + "\n").utf8).withUnsafeBytes { reader.consume($0) { fixes.append($0) } }
        return fixes.first
    }

    @Test("One report gives the same fix live (libgps) and from a gpsd JSON file, out-of-range values dropped alike",
          arguments: [
              (track: 360.0, speed: 12.5, altMSL: 35.0),
              (track: 400.0, speed: 2_000.0, altMSL: 200_000.0),
              (track: 0.0, speed: -1.0, altMSL: -2_000.0),
          ])
    func liveAndFileMappingsAgree(values: (track: Double, speed: Double, altMSL: Double)) throws {
        var tpv = Self.emptyTPV(mode: MODE_3D)
        tpv.time = timespec(tv_sec: 1_419_995_240, tv_nsec: 0)
        tpv.latitude = 52.5258
        tpv.longitude = 13.3745
        tpv.altMSL = values.altMSL
        tpv.speed = values.speed
        tpv.track = values.track
        tpv.eph = 9.8
        let live = try #require(Fix(tpv: tpv, satellites: nil))
        let line = #"{"class":"TPV","mode":3,"time":"2014-12-31T03:07:20.000Z","lat":52.5258,"lon":13.3745,"#
            + #""altMSL":\#(values.altMSL),"speed":\#(values.speed),"track":\#(values.track),"eph":9.8}"#
        let file = try #require(Self.fileFix(line))
        #expect(live == file)
        #expect(live.course == (values.track == 360 ? 0 : (values.track <= 360 ? values.track : nil)))
    }
}

