import GeoWakeCore
import Foundation
import Testing
@testable import Traces

/// Epoch merging, dates across midnight and centuries, and streaming behaviour.
@Suite struct NMEAEpochTests {
    static func gga(_ time: String) -> String {
        sentence("GPGGA,\(time),5230.38495,N,01316.49804,E,1,13,0.90,27.6,M,39.6,M,,")
    }

    static func rmc(_ time: String, _ date: String) -> String {
        sentence("GPRMC,\(time),A,5230.38495,N,01316.49804,E,0.000,,\(date),,,A")
    }

    @Test func dateCarriesAcrossMidnightWithoutAnotherRMC() {
        let fixes = readNMEA(Self.rmc("235959.00", "311224") + Self.gga("000000.00") + Self.gga("000001.00")).fixes
        #expect(fixes.map(\.time) == [timestamp(2024, 12, 31, 23, 59, 59), timestamp(2025, 1, 1, 0, 0, 0),
                                      timestamp(2025, 1, 1, 0, 0, 1)])
    }

    @Test func rmcAfterMidnightConfirmsTheNewDate() {
        let fixes = readNMEA(Self.rmc("235959.00", "290224") + Self.gga("000000.00") + Self.rmc("000000.00", "010324")).fixes
        #expect(fixes.map(\.time) == [timestamp(2024, 2, 29, 23, 59, 59), timestamp(2024, 3, 1)])
    }

    @Test func fixesBeforeAnyDateHaveNoTime() {
        let fixes = readNMEA(Self.gga("120000.00") + Self.rmc("120001.00", "030624")).fixes
        #expect(fixes.map(\.time) == [nil, timestamp(2024, 6, 3, 12, 0, 1)])
    }

    @Test func voidRMCDateIsNotTrusted() {
        let voidRMC = sentence("GNRMC,074150.799,V,,,,,,,250280,,,N")
        #expect(readNMEA(voidRMC + Self.gga("074151.799")).fixes.map(\.time) == [nil])
    }

    @Test func twoDigitYearsFallIn1980To2079() {
        #expect(readNMEA(Self.rmc("120000.00", "311299")).fixes.first?.time == timestamp(1999, 12, 31, 12, 0, 0))
        #expect(readNMEA(Self.rmc("120000.00", "010179")).fixes.first?.time == timestamp(2079, 1, 1, 12, 0, 0))
        #expect(readNMEA(Self.rmc("120000.00", "010180")).fixes.first?.time == timestamp(1980, 1, 1, 12, 0, 0))
    }

    @Test func zdaYearPlacesLaterTwoDigitYearsAcrossACentury() {
        let text = sentence("GPZDA,235959.00,31,12,2099,00,00") + Self.rmc("000000.00", "010100")
        #expect(readNMEA(text).fixes.last?.time == timestamp(2100, 1, 1))
    }

    @Test func weekRolloverDatesAreReportedAsTheReceiverSentThem() {
        // A receiver with the 1024-week bug says 1999-08-22 when it is 2019-04-07; no guess is applied.
        #expect(readNMEA(Self.rmc("000000.00", "220899")).fixes.first?.time == timestamp(1999, 8, 22))
    }

    @Test func gstOfAnotherTimeIsIgnoredAndDoesNotSplitTheEpoch() throws {
        let text = Self.gga("120001.00") + sentence("GPGST,120000.00,1.6,1.3,1.0,0.4,1.0,1.1,2.6")
            + Self.rmc("120001.00", "030624")
        let fixes = readNMEA(text).fixes
        #expect(fixes.count == 1)
        let fix = try #require(fixes.first)
        #expect(fix.horizontalAccuracy == 0.9 * NMEAEpoch.userEquivalentRangeError)
        #expect(fix.speed != nil && fix.altitudeMSL != nil)
    }

    @Test func zdaStampedAcrossMidnightFromItsEpochDatesItRight() {
        let text = Self.gga("235959.95") + sentence("GPZDA,000000.05,04,06,2024,00,00") + Self.gga("000000.95")
        #expect(readNMEA(text).fixes.map(\.time) == [timestamp(2024, 6, 3, 23, 59, 59, 950), timestamp(2024, 6, 4, 0, 0, 0, 950)])
    }

    @Test func untimedSentencesJoinTheCurrentEpoch() {
        let fixes = readNMEA(sentence("GPGSA,A,2,17,28,06,,,,,,,,,,1.8,1.1,1.5") + Self.gga("120000.00")
                             + sentence("GPVTG,054.7,T,,M,005.5,N,010.2,K,A")).fixes
        #expect(fixes.count == 1)
        #expect(fixes.first?.mode == .twoD && fixes.first?.course == 54.7)
    }

    @Test func flushReportsThePendingEpochOnceAndKeepsTheDate() {
        var reader = NMEAReader()
        var fixes: [Fix] = []
        let first = Array((Self.rmc("120000.00", "030624") + Self.gga("120000.00")).utf8)
        first.withUnsafeBytes { reader.consume($0) { fixes.append($0) } }
        #expect(fixes.isEmpty)
        reader.flush { fixes.append($0) }
        #expect(fixes.count == 1)
        let late = Array((sentence("GPGSA,A,3,17,28,06,01,,,,,,,,,1.8,1.1,1.5") + Self.gga("120000.00")).utf8)
        late.withUnsafeBytes { reader.consume($0) { fixes.append($0) } }
        reader.flush { fixes.append($0) }
        #expect(fixes.count == 1)
        Array(Self.gga("120001.00").utf8).withUnsafeBytes { reader.consume($0) { fixes.append($0) } }
        reader.finish { fixes.append($0) }
        #expect(fixes.map(\.time) == [timestamp(2024, 6, 3, 12, 0, 0), timestamp(2024, 6, 3, 12, 0, 1)])
        #expect(reader.statistics.fixes == 2)
    }

    @Test func everyChunkingOfARealCaptureGivesTheSameFixes() throws {
        for name in ["st-teseo-liv4f.log", "beidou-bd.log", "nmea-fuzzy-cases.log"] {
            let bytes = try #require(FileManager.default.contents(atPath: Paths.gpsdTraces + "/" + name)).map { $0 }
            let whole = readNMEA(bytes)
            #expect(whole.fixes.count > 3)
            for chunk in [1, 2, 3, 5, 8, 13, 64, 81, 82, 83, 255, 256, 4096] {
                let pieces = readNMEA(bytes, chunk: chunk)
                #expect(pieces.fixes == whole.fixes, "\(name) in chunks of \(chunk)")
                #expect(pieces.statistics == whole.statistics, "\(name) in chunks of \(chunk)")
            }
        }
    }
}
