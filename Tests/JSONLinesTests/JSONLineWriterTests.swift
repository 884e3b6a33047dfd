import GeoWakeCore
import JSONLines
import Testing

@Suite struct JSONLineWriterTests {
    @Test func fixLineMatchesTheContract() {
        let fix = Fix(time: Timestamp(year: 2014, month: 12, day: 31, hour: 3, minute: 7, second: 19)!,
                      coordinate: Coordinate(latitude: -37.784788333, longitude: 175.314896667),
                      altitudeMSL: 59.9, speed: 0.355, course: 181.39, mode: .threeD)
        var w = JSONLineWriter()
        w.fixLine(fix)
        #expect(String(decoding: w.bytes, as: UTF8.self) ==
            #"{"time":"2014-12-31T03:07:19.000Z","lat":-37.784788333,"lon":175.314896667,"altMSL":59.9,"speed":0.355,"course":181.39,"mode":3}"# + "\n")
    }

    @Test func numbersRoundAndDropTrailingZeros() {
        var w = JSONLineWriter()
        w.beginObject()
        w.field("a", 0.0, decimals: 3)
        w.field("b", -0.0004, decimals: 3)
        w.field("c", 1.9999999999, decimals: 9)
        w.field("d", -12.5, decimals: 0)
        w.field("e", Double.nan, decimals: 2)
        w.endLine()
        #expect(String(decoding: w.bytes, as: UTF8.self) == #"{"a":0,"b":0,"c":2,"d":-13,"e":null}"# + "\n")
    }

    @Test func stringsAreEscaped() {
        var w = JSONLineWriter()
        w.appendString("a\"b\\c\nd\u{01}é")
        #expect(String(decoding: w.bytes, as: UTF8.self) == #""a\"b\\c\nd\u0001é""#)
    }

    @Test func bufferStringsAreEscapedAsAnyOther() {
        for text in ["r000123", "a\"b\\c\nd\u{01}é", "", "plain é ü", "\u{1F}"] {
            var fromBuffer = JSONLineWriter(), fromSequence = JSONLineWriter()
            Array(text.utf8).withUnsafeBufferPointer { fromBuffer.appendString(utf8: $0) }
            fromSequence.appendString(utf8: Array(text.utf8))
            #expect(fromBuffer.bytes == fromSequence.bytes, "\(text)")
        }
    }

    @Test func secondsBeforeTheEpochFormatCorrectly() {
        var w = JSONLineWriter()
        w.appendTimestamp(Timestamp(millisecondsSince1970: -1))
        #expect(String(decoding: w.bytes, as: UTF8.self) == "\"1969-12-31T23:59:59.999Z\"")
    }

    @Test("Years from 0 to 9999 print four digits; a later one keeps all its digits")
    func yearsKeepTheirDigits() {
        var w = JSONLineWriter()
        w.appendTimestamp(Timestamp(year: 9, month: 1, day: 2, hour: 3, minute: 4, second: 5)!)
        w.appendTimestamp(Timestamp(millisecondsSince1970: 253_402_300_800_000 + 61_001))
        #expect(String(decoding: w.bytes, as: UTF8.self) == "\"0009-01-02T03:04:05.000Z\"\"10000-01-01T00:01:01.001Z\"")
    }
}
