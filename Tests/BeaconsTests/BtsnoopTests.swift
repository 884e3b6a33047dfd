import GeoWakeCore
import JSONLines
import Testing
@testable import Traces

/// btsnoop captures written byte by byte per the format, read back to the same reports as their JSON-lines twins.
@Suite struct BtsnoopTests {
    typealias F = BeaconFrames

    static let reports = [
        AdvertisingReport(time: Timestamp(millisecondsSince1970: 1_763_892_000_123), address: 0xC3_11_22_33_44_01,
                          rssi: -61, data: F.flags + F.iBeacon()),
        AdvertisingReport(time: Timestamp(millisecondsSince1970: 1_763_892_000_456), address: 0xD4_55_66_77_88_02,
                          rssi: -77, data: F.name + F.altBeacon()),
    ]

    static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }

    static func header(datalink: UInt32) -> [UInt8] {
        Array("btsnoop".utf8) + [0] + bigEndian(UInt32(1)) + bigEndian(datalink)
    }

    static func record(_ packet: [UInt8], flags: UInt32, time: Timestamp) -> [UInt8] {
        let micros = time.millisecondsSince1970 * 1000 + 0x00dc_ddb3_0f2f_8000
        return bigEndian(UInt32(packet.count)) + bigEndian(UInt32(packet.count)) + bigEndian(flags)
            + bigEndian(UInt32(0)) + bigEndian(micros) + packet
    }

    /// An LE Advertising Report event (0x3E, subevent 0x02) carrying every given report.
    static func legacyEvent(_ reports: [AdvertisingReport]) -> [UInt8] {
        var parameters: [UInt8] = [0x02, UInt8(reports.count)]
        for r in reports {
            parameters += [0x00, 0x01] + (0..<6).map { UInt8(truncatingIfNeeded: r.address >> (8 * UInt64($0))) }
            parameters += [UInt8(r.data.count)] + r.data + [UInt8(bitPattern: Int8(r.rssi))]
        }
        return [0x3E, UInt8(parameters.count)] + parameters
    }

    /// An LE Extended Advertising Report (subevent 0x0D), complete data, legacy PDU.
    static func extendedEvent(_ r: AdvertisingReport, dataStatus: UInt8 = 0) -> [UInt8] {
        var parameters: [UInt8] = [0x0D, 1, 0x13 | dataStatus << 5, 0x00, 0x00]
        parameters += (0..<6).map { UInt8(truncatingIfNeeded: r.address >> (8 * UInt64($0))) }
        parameters += [0x01, 0x00, 0xFF, 0x7F, UInt8(bitPattern: Int8(r.rssi)), 0x00, 0x00, 0x00] + [UInt8](repeating: 0, count: 6)
        parameters += [UInt8(r.data.count)] + r.data
        return [0x3E, UInt8(parameters.count)] + parameters
    }

    static func jsonLines(_ reports: [AdvertisingReport]) -> [UInt8] {
        var writer = JSONLineWriter()
        for r in reports {
            writer.beginObject()
            writer.field("time", r.time)
            writer.field("address", (0..<6).reversed().map {
                String(format: UInt8(truncatingIfNeeded: r.address >> (8 * UInt64($0)))).uppercased()
            }.joined(separator: ":"))
            writer.field("rssi", r.rssi)
            writer.field("data", r.data.map { String(format: $0) }.joined())
            writer.endLine()
        }
        return writer.bytes
    }

    static func read(_ bytes: [UInt8]) throws -> ([AdvertisingReport], AdvertisingStatistics) {
        var found: [AdvertisingReport] = []
        var statistics = AdvertisingStatistics()
        try bytes.withUnsafeBufferPointer { b throws(TraceError) in
            try BtsnoopReader.read(b, statistics: &statistics) { found.append($0) }
        }
        return (found, statistics)
    }

    static func readLines(_ bytes: [UInt8]) -> [AdvertisingReport] {
        var reader = BeaconTraceReader()
        var found: [AdvertisingReport] = []
        bytes.withUnsafeBytes { reader.consume($0) { found.append($0) } }
        reader.finish { found.append($0) }
        return found
    }

    @Test("An H4 (1002) capture, one report per event, reads back to the same reports as its JSON-lines twin")
    func h4MatchesJSONLines() throws {
        var file = Self.header(datalink: 1002)
        for r in Self.reports { file += Self.record([0x04] + Self.legacyEvent([r]), flags: 1, time: r.time) }
        let (snooped, statistics) = try Self.read(file)
        #expect(snooped == Self.reports)
        #expect(Self.readLines(Self.jsonLines(Self.reports)) == Self.reports)
        #expect(statistics.malformed == 0)
    }

    @Test("Several reports in one event, unencapsulated HCI (1001), all read; commands and ACL data are skipped")
    func severalReportsPerEvent() throws {
        let time = Self.reports[0].time
        var file = Self.header(datalink: 1001)
        file += Self.record([0x0C, 0x20, 0x02, 0x01, 0x00], flags: 2, time: time)
        file += Self.record(Self.legacyEvent(Self.reports), flags: 3, time: time)
        file += Self.record([0x01, 0x20, 0x00, 0x00], flags: 1, time: time)
        let (snooped, statistics) = try Self.read(file)
        #expect(snooped.map(\.data) == Self.reports.map(\.data))
        #expect(snooped.allSatisfy { $0.time == time })
        #expect(statistics.otherPackets == 2)
    }

    @Test("Extended reports (0x0D) in btmon's monitor format (2001) read; an incomplete fragment is skipped")
    func extendedReports() throws {
        var file = Self.header(datalink: 2001)
        file += Self.record(Self.extendedEvent(Self.reports[0]), flags: 3, time: Self.reports[0].time)
        file += Self.record(Self.extendedEvent(Self.reports[1], dataStatus: 1), flags: 3, time: Self.reports[1].time)
        let (snooped, statistics) = try Self.read(file)
        #expect(snooped == [Self.reports[0]])
        #expect(statistics.fragments == 1)
    }

    @Test("A report cut short inside an event, and a record cut short at the end, are counted, not crashed on")
    func truncation() throws {
        var file = Self.header(datalink: 1002)
        var event = [0x04] + Self.legacyEvent(Self.reports)
        event.removeLast(3)
        file += Self.record(event, flags: 1, time: Self.reports[0].time)
        file += Array(Self.record([0x04] + Self.legacyEvent([Self.reports[1]]), flags: 1, time: Self.reports[1].time).dropLast(5))
        let (snooped, statistics) = try Self.read(file)
        #expect(snooped == [Self.reports[0]])
        #expect(statistics.malformed == 2)
    }

    @Test("A file that is not btsnoop, or has another datalink, is one error naming the byte")
    func badHeader() {
        #expect(throws: TraceError.self) { try Self.read(Array("btsnoq\0\0".utf8) + [UInt8](repeating: 0, count: 8)) }
        do {
            _ = try Self.read(Self.header(datalink: 1003))
            Issue.record("datalink 1003 was accepted")
        } catch {
            #expect("\(error)".contains("datalink 1003"))
        }
    }
}

private extension String {
    init(format byte: UInt8) {
        let hex = Array("0123456789abcdef")
        self = String([hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
    }
}
