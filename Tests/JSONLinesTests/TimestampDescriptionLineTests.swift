import GeoWakeCore
import JSONLines
import Testing

@Suite struct TimestampDescriptionLineTests {
    @Test("Timestamp.description is exactly the time the JSON lines write, for 10,000 instants from year 0 to 9999")
    func descriptionMatchesTheWriter() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let first = Timestamp(year: 0, month: 1, day: 1)!.millisecondsSince1970
        let span = UInt64(Timestamp(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59, millisecond: 999)!
            .millisecondsSince1970 - first)
        for _ in 0..<10_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let time = Timestamp(millisecondsSince1970: first + Int64((state >> 1) % span))
            var writer = JSONLineWriter(reservingCapacity: 32)
            writer.appendTimestamp(time)
            let written = String(decoding: writer.bytes, as: UTF8.self)
            #expect(written == "\"\(time)\"")
            if written != "\"\(time)\"" { return }
        }
    }
}
