import Testing
@testable import Traces

/// Bad input is dropped and counted, never a crash and never a wrong fix.
@Suite struct NMEAMalformedInputTests {
    static let rmc = sentence("GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A")
    static let gga = sentence("GPGGA,030720.000,3747.0875,S,17518.8938,E,1,08,1.1,59.8,M,23.7,M,,0000")

    /// `body` with a correct checksum: the sentence reaches the field decoders.
    static func malformedCount(_ body: String) -> (fixes: Int, malformed: Int) {
        let (fixes, statistics) = readNMEA(Self.rmc + sentence(body))
        return (fixes.count, statistics.malformed)
    }

    @Test func badChecksumIsDroppedAndCounted() {
        let wrong = String(Self.gga.dropLast(3)) + "00\r\n"   // CRLF is one Character
        let (fixes, statistics) = readNMEA(Self.rmc + wrong)
        #expect(fixes.count == 1)
        #expect(statistics.checksumErrors == 1)
        let notHex = readNMEA(Self.rmc + String(Self.gga.dropLast(3)) + "G0\r\n").statistics
        #expect(notHex.malformed == 1)
    }

    @Test func lowercaseHexChecksumIsAccepted() throws {
        let withLetter = try #require((10..<60).lazy.map {
            sentence("GPRMC,0307\($0).000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A")
        }.first { $0.dropLast().suffix(2).contains { $0.isLetter } })
        let lower = String(withLetter.dropLast(3)) + withLetter.dropLast().suffix(2).lowercased() + "\r\n"
        #expect(lower != withLetter)
        let (fixes, statistics) = readNMEA(lower)
        #expect(fixes.count == 1 && statistics.checksumErrors == 0)
    }

    @Test func truncatedLineIsDroppedAsMalformed() {
        let truncated = String(Self.gga.prefix(40)) + "\r\n"
        let (fixes, statistics) = readNMEA(Self.rmc + truncated)
        #expect(fixes.count == 1)
        #expect(statistics.malformed == 1)
    }

    @Test func sentenceRestartedMidLineKeepsTheNewSentence() {
        let (fixes, statistics) = readNMEA("$GPGGA,0307" + Self.rmc)
        #expect(fixes.count == 1 && statistics.malformed == 1)
    }

    @Test func overlongLineIsDropped() {
        let long = sentence("GPGGA,030720.000," + String(repeating: "1", count: 300) + ",S,17518.8938,E,1,08,1.1,59.8,M,23.7,M,,0000")
        for chunk in [nil, 7] as [Int?] {
            let (fixes, statistics) = readNMEA(Self.rmc + long + Self.gga, chunk: chunk)
            #expect(fixes.count == 2)
            #expect(statistics.malformed == 1)
        }
    }

    @Test func nulAndBinaryNoiseBetweenSentencesIsSkipped() {
        var noisy = Array(Self.rmc.utf8)
        noisy += [0, 0, 0, 0xFF, 0x81, 0x13, 0x0D]
        noisy += Array(Self.gga.utf8)
        noisy += [0, 0xB5, 0x62, 0x01, 0x07, 0x5C, 0x00, 0x0A, 0x24, 0x80, 0x0A]   // a UBX frame, a stray "$"
        let (fixes, statistics) = readNMEA(noisy)
        #expect(fixes.count == 2)
        #expect(fixes == readNMEA(Self.rmc + Self.gga).fixes)
        #expect(statistics.checksumErrors == 0)
    }

    @Test func missingFieldsAreMalformed() {
        #expect(Self.malformedCount("GPGGA,030720.000,3747.0875,S") == (1, 1))
        #expect(Self.malformedCount("GPRMC,030720.000,A,3747.0875,S,17518.8938,E") == (1, 1))
        #expect(Self.malformedCount("GPGGA,030720.000,3747.0875,,17518.8938,E,1,08,1.1,59.8,M,23.7,M,,") == (1, 1))
        #expect(Self.malformedCount("GPGGA,030720.000,,,17518.8938,E,1,08,1.1,59.8,M,23.7,M,,") == (1, 1))
    }

    @Test func garbageNumbersAreMalformed() {
        let cases = [
            "GPGGA,030720.000,37x7.0875,S,17518.8938,E,1,08,1.1,59.8,M,23.7,M,,",     // letter in a number
            "GPGGA,030720.000,3767.0875,S,17518.8938,E,1,08,1.1,59.8,M,23.7,M,,",     // 67 minutes
            "GPGGA,030720.000,9130.0000,S,17518.8938,E,1,08,1.1,59.8,M,23.7,M,,",     // latitude 91°
            "GPGGA,030720.000,3747.0875,S,18118.8938,E,1,08,1.1,59.8,M,23.7,M,,",     // longitude 181°
            "GPGGA,030720.000,3747.0875,X,17518.8938,E,1,08,1.1,59.8,M,23.7,M,,",     // hemisphere X
            "GPGGA,030720.000,3747.0875,S,17518.8938,E,1,08,1.1,5.9.8,M,23.7,M,,",    // two points
            "GPGGA,030720.000,3747.0875,S,17518.8938,E,1,08,1.1,123456789012345678901,M,23.7,M,,",
            "GPGGA,030720.000,3747.0875,S,17518.8938,E,1,08,1.1,999999,M,23.7,M,,",   // altitude out of range
            "GPGGA,250720.000,3747.0875,S,17518.8938,E,1,08,1.1,59.8,M,23.7,M,,",     // hour 25
            "GPGGA,03:07:20,3747.0875,S,17518.8938,E,1,08,1.1,59.8,M,23.7,M,,",
            "GPGGA,030720.000,3747.0875,S,17518.8938,E,one,08,1.1,59.8,M,23.7,M,,",
            "GPRMC,030720.000,A,3747.0875,S,17518.8938,E,-1.0,181.39,311214,,,A",     // negative speed
            "GPRMC,030720.000,A,3747.0875,S,17518.8938,E,0.69,361.0,311214,,,A",      // course 361
            "GPRMC,030720.000,A,3747.0875,S,17518.8938,E,0.69,181.39,310214,,,A",     // 31 February
            "GPRMC,030720.000,A,3747.0875,S,17518.8938,E,0.69,181.39,3112,,,A",
            "GPZDA,030720.000,32,12,2014,00,00",
        ]
        for body in cases {
            #expect(Self.malformedCount(body) == (1, 1), "\(body)")
        }
    }

    @Test func voidStatusGivesNoFixAndIsNotMalformed() {
        for body in ["GPRMC,030720.000,V,3747.0875,S,17518.8938,E,0.69,181.39,311214,,,N",
                     "GPGGA,030720.000,3747.0875,S,17518.8938,E,0,08,1.1,59.8,M,23.7,M,,",
                     "GPGGA,030720.000,,,,,0,00,,,M,0.0,M,,0000",
                     "GPGLL,3747.0875,S,17518.8938,E,030720.000,V,N",
                     "GPRMC,030720.000,A,3747.0875,S,17518.8938,E,0.69,181.39,311214,,,N"] {
            #expect(Self.malformedCount(body) == (1, 0), "\(body)")
        }
    }

    @Test func voidSentenceVoidsItsWholeEpoch() {
        let voidRMC = sentence("GPRMC,030720.000,V,3747.0875,S,17518.8938,E,0.69,181.39,311214,,,N")
        #expect(readNMEA(Self.gga + voidRMC).fixes.isEmpty)
    }

    @Test func missingChecksumIsAcceptedOnlyBeforeTheFirstChecksummedSentence() {
        let unchecked = "$GPGGA,030718.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000\r\n"
        let before = readNMEA(unchecked + Self.rmc)
        #expect(before.fixes.count == 2 && before.statistics.unchecked == 1)
        let after = readNMEA(Self.rmc + unchecked.replacingOccurrences(of: "030718", with: "030720"))
        #expect(after.fixes.count == 1 && after.statistics.malformed == 1)
    }

    @Test func doubleDollarFramingIsRead() {
        let (fixes, statistics) = readNMEA("$" + Self.rmc + "$" + Self.gga)
        #expect(fixes.count == 2 && statistics.malformed == 0 && statistics.sentences == 2)
    }

    @Test func aisCommentsAndBlankLinesAreSkipped() {
        let text = "# Date: 2014-12-31, example $GPGGA,1,2,3*00\n\n!AIVDM,1,1,,B,177KQJ5000G?tO`K>RA1wUbN0TKH,0*5C\r\n"
            + "   " + Self.rmc
        let (fixes, statistics) = readNMEA(text)
        #expect(fixes.count == 1 && statistics.sentences == 1 && statistics.malformed == 0)
    }

    @Test func lfAndCRLFLineEndsReadTheSame() {
        let crlf = Self.rmc + Self.gga
        let lf = crlf.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(readNMEA(lf).fixes == readNMEA(crlf).fixes)
        #expect(readNMEA(lf).fixes.count == 2)
    }

    @Test func lastLineWithoutLineFeedCounts() {
        #expect(readNMEA(String(Self.rmc.dropLast())).fixes.count == 1)   // CRLF is one Character
    }
}
