import Testing
@testable import Traces

/// What each sentence type contributes to a fix.
@Suite struct NMEASentenceTests {
    static let rmc = sentence("GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A")
    static let gga = sentence("GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000")

    @Test func ggaGivesPositionAltitudeSatellitesAndHDOPAccuracy() throws {
        let (fixes, statistics) = readNMEA(Self.gga)
        let fix = try #require(fixes.first)
        #expect(fixes.count == 1 && statistics.fixes == 1)
        #expect(fix.time == nil)   // no RMC or ZDA yet: the date is unknown
        #expect(abs(fix.coordinate.latitude - -37.784788333) < 1e-9)
        #expect(abs(fix.coordinate.longitude - 175.314896667) < 1e-9)
        #expect(fix.altitudeMSL == 59.9)
        #expect(fix.satellites == 8)
        #expect(fix.horizontalAccuracy == 1.1 * NMEAEpoch.userEquivalentRangeError)
        #expect(fix.mode == .threeD)
        #expect(fix.speed == nil && fix.course == nil)
    }

    @Test func rmcGivesDateSpeedInMetresPerSecondAndCourse() throws {
        let fix = try #require(readNMEA(Self.rmc).fixes.first)
        #expect(fix.time == timestamp(2014, 12, 31, 3, 7, 19))
        #expect(abs(fix.speed! - 0.69 * 1852 / 3600) < 1e-12)
        #expect(fix.course == 181.39)
        #expect(fix.mode == .twoD)   // no altitude, no GSA
        #expect(fix.altitudeMSL == nil)
    }

    @Test func ggaAndRmcOfOneEpochMergeIntoOneFix() throws {
        let (fixes, _) = readNMEA(Self.gga + sentence("GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5") + Self.rmc)
        #expect(fixes.count == 1)
        let fix = try #require(fixes.first)
        #expect(fix.time == timestamp(2014, 12, 31, 3, 7, 19))
        #expect(fix.altitudeMSL == 59.9 && fix.course == 181.39 && fix.mode == .threeD)
    }

    @Test func gsaFixTypeDecidesTheMode() throws {
        let fix = try #require(readNMEA(Self.gga + sentence("GPGSA,A,2,17,28,06,,,,,,,,,,1.8,1.1,1.5")).fixes.first)
        #expect(fix.mode == .twoD)
    }

    @Test func gllGivesAPositionAndStatusVVoidsIt() throws {
        let valid = readNMEA(Self.rmc + sentence("GPGLL,3747.1000,S,17518.9000,E,030720.000,A,A")).fixes
        #expect(valid.count == 2)
        #expect(abs(valid[1].coordinate.latitude - -37.785) < 1e-9)
        #expect(valid[1].time == timestamp(2014, 12, 31, 3, 7, 20))
        let void = readNMEA(Self.rmc + sentence("GPGLL,3747.0900,S,17518.9000,E,030720.000,V,N")).fixes
        #expect(void.count == 1)
    }

    @Test func gnsGivesPositionAltitudeAndAnyNonNModeIsValid() throws {
        let furuno = sentence("GNGNS,120213.000,5957.0062,N,01100.6429,E,NDD,11,1.3,168.9,39.5,,,S")
        let fix = try #require(readNMEA(furuno).fixes.first)
        #expect(abs(fix.coordinate.latitude - 59.950103333) < 1e-9)
        #expect(fix.altitudeMSL == 168.9 && fix.satellites == 11 && fix.mode == .threeD)
        #expect(readNMEA(sentence("GNGNS,074150.799,,,,,NNNN,00,,,0.0,,0000")).fixes.isEmpty)
        #expect(readNMEA(sentence("GNGNS,074150.799,3114.8770,N,12135.2463,E,NNNN,05,1.3,156.9,8.3,,0000")).fixes.isEmpty)
    }

    @Test func vtgGivesCourseAndSpeedForTheCurrentEpoch() throws {
        let vtg = sentence("GNVTG,120.9,T,,M,0.5,N,0.8,K,A")
        let fix = try #require(readNMEA(Self.gga + vtg).fixes.first)
        #expect(fix.course == 120.9)
        #expect(abs(fix.speed! - 0.5 * 1852 / 3600) < 1e-12)
        let old = try #require(readNMEA(Self.gga + sentence("GPVTG,054.7,034.4,005.5,010.2")).fixes.first)
        #expect(old.course == 54.7 && abs(old.speed! - 5.5 * 1852 / 3600) < 1e-12)
        let notValid = try #require(readNMEA(Self.gga + sentence("GPVTG,054.7,T,,M,005.5,N,010.2,K,N")).fixes.first)
        #expect(notValid.course == nil && notValid.speed == nil)
    }

    @Test func gstErrorEllipseBecomesTheAccuracyInsteadOfHDOP() throws {
        let gst = sentence("GNGST,030719.000,228650,2.5,2.4,126,0.98,1.0,3.1")
        let fix = try #require(readNMEA(Self.gga + gst).fixes.first)
        #expect(abs(fix.horizontalAccuracy! - (0.98 * 0.98 + 1.0 * 1.0).squareRoot()) < 1e-12)
    }

    @Test func zdaGivesTheDateWithAFourDigitYear() throws {
        let fix = try #require(readNMEA(Self.gga + sentence("GPZDA,030719.000,31,12,2014,+00,00")).fixes.first)
        #expect(fix.time == timestamp(2014, 12, 31, 3, 7, 19))
    }

    @Test func optionalTrailingFieldsMayBeMissing() {
        for body in ["GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214",
                     "GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,020.3",
                     "GNGNS,030719.000,3747.0873,S,17518.8938,E,AA,11,1.3,168.9,39.5",
                     "GPVTG,181.39,T,,M,0.69,N"] {
            let (fixes, statistics) = readNMEA(Self.gga + sentence(body))
            #expect(fixes.count == 1 && statistics.malformed == 0, "\(body)")
        }
    }

    @Test func anyTalkerIsAccepted() throws {
        for talker in ["GP", "GN", "GL", "GA", "GB", "BD", "GQ", "GI"] {
            let fix = readNMEA(sentence(talker + "GGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000")).fixes
            #expect(fix.count == 1, "\(talker)")
        }
    }

    @Test func gsvAndProprietarySentencesAreReadAndIgnored() {
        let text = sentence("GPGSV,3,1,12,17,72,207,32,28,59,095,31,06,35,347,25,01,29,132,23")
            + sentence("PERDCRJ,FREQ,GP,,,,,,") + Self.gga
        let (fixes, statistics) = readNMEA(text)
        #expect(fixes.count == 1)
        #expect(statistics.sentences == 3 && statistics.malformed == 0)
    }

    @Test func subSecondEpochsAreSeparateFixes() {
        let text = sentence("GPRMC,132820.60,A,4134.49821229,N,09345.03351845,W,3.252,92.308,180320,11.5985,E,D")
            + sentence("GPRMC,132820.70,A,4134.49822493,N,09345.03347183,W,3.019,89.298,180320,11.5985,E,D")
        let fixes = readNMEA(text).fixes
        #expect(fixes.map(\.time) == [timestamp(2020, 3, 18, 13, 28, 20, 600), timestamp(2020, 3, 18, 13, 28, 20, 700)])
        #expect(abs(fixes[0].coordinate.latitude - 41.574970205) < 1e-9)
    }
}
