import GeoWakeCore
@testable import GPSD
import Testing

@Suite struct EpochCoalescerTests {
    static func fix(_ second: Int64?, altitude: Double? = nil) -> Fix {
        Fix(time: second.map { Timestamp(millisecondsSince1970: $0 * 1000) },
            coordinate: Coordinate(latitude: 1, longitude: 2), altitudeMSL: altitude)
    }

    @Test("Of several TPVs for one time the last goes out, when the next time begins or on flush")
    func keepsTheLastReportOfEachEpoch() {
        var epoch = EpochCoalescer()
        #expect(epoch.add(Self.fix(1)) == nil)
        #expect(epoch.add(Self.fix(1, altitude: 5)) == nil)
        #expect(epoch.add(Self.fix(2)) == Self.fix(1, altitude: 5))
        #expect(epoch.flush() == Self.fix(2))
        #expect(epoch.flush() == nil)
    }

    @Test("Untimed reports (before the date is known) merge like timed ones")
    func untimedReportsMerge() {
        var epoch = EpochCoalescer()
        #expect(epoch.add(Self.fix(nil)) == nil)
        #expect(epoch.add(Self.fix(nil, altitude: 7)) == nil)
        #expect(epoch.add(Self.fix(3)) == Self.fix(nil, altitude: 7))
    }

    @Test("A report of an epoch already flushed, arriving late, is dropped rather than sent as a second fix")
    func lateReportsOfAFlushedEpochAreDropped() {
        var epoch = EpochCoalescer()
        #expect(epoch.add(Self.fix(1)) == nil)
        #expect(epoch.flush() == Self.fix(1))
        #expect(epoch.add(Self.fix(1, altitude: 5)) == nil)
        #expect(epoch.flush() == nil)
        #expect(epoch.add(Self.fix(2)) == nil)
        #expect(epoch.flush() == Self.fix(2))
    }
}
