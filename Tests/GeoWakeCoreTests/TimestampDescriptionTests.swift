import GeoWakeCore
import Testing

@Suite struct TimestampDescriptionTests {
    @Test("A timestamp prints as the contract's time: ISO 8601 UTC with milliseconds and Z")
    func printsAsISO8601() throws {
        let time = try #require(Timestamp(year: 2014, month: 12, day: 31, hour: 3, minute: 7, second: 19, millisecond: 5))
        #expect("\(time)" == "2014-12-31T03:07:19.005Z")
        #expect(String(describing: Timestamp(millisecondsSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp(millisecondsSince1970: -1).description == "1969-12-31T23:59:59.999Z")
        #expect(Timestamp(year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 59, millisecond: 999)?.description
                == "2024-02-29T23:59:59.999Z")
    }
}
