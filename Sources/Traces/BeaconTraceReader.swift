import GeoWakeCore
import JSONText

/// Reads the contract's JSON-lines beacon trace:
/// `{"time":"ISO 8601 UTC","address":"AA:BB:CC:DD:EE:FF","rssi":-70,"data":"hex of the advertising data"}`.
/// Blank lines and `#` comments are skipped; a line that is not such an object is counted as malformed.
struct BeaconTraceReader {
    private var splitter = LineFramer(maximumLine: 1 << 16)
    var statistics = AdvertisingStatistics()

    mutating func consume(_ chunk: UnsafeRawBufferPointer, _ report: (AdvertisingReport) -> Void) {
        var counts = statistics
        splitter.split(chunk) { line in Self.handle(line, &counts, report) }
        statistics = counts
    }

    mutating func finish(_ report: (AdvertisingReport) -> Void) {
        var counts = statistics
        splitter.finish { line in Self.handle(line, &counts, report) }
        statistics = counts
    }

    private static func handle(_ line: UnsafeBufferPointer<UInt8>?, _ statistics: inout AdvertisingStatistics,
                               _ report: (AdvertisingReport) -> Void) {
        guard let line else { statistics.records += 1; statistics.malformed += 1; return }
        var first = 0
        while first < line.count, line[first] == 0x20 || line[first] == 0x09 || line[first] == 0x0D { first += 1 }
        guard first < line.count, line[first] != UInt8(ascii: "#") else { return }
        statistics.records += 1
        if let parsed = Self.report(line) {
            statistics.reports += 1
            report(parsed)
        } else {
            statistics.malformed += 1
        }
    }

    static func report(_ line: UnsafeBufferPointer<UInt8>) -> AdvertisingReport? {
        var time: Timestamp?
        var address: UInt64?
        var rssi: Int?
        var data: [UInt8]?
        var bad = false
        let isObject = JSONScanner.members(of: line) { key, value in
            if key.equals("time") {
                guard case .string(let s) = value, let t = ISO8601.timestamp(s) else { bad = true; return }
                time = t
            } else if key.equals("address") {
                guard case .string(let s) = value, let a = deviceAddress(s) else { bad = true; return }
                address = a
            } else if key.equals("rssi") {
                guard case .number(let n) = value, n == n.rounded(), n >= -128, n <= 127 else { bad = true; return }
                rssi = Int(n)
            } else if key.equals("data") {
                guard case .string(let s) = value, let d = hexBytes(s) else { bad = true; return }
                data = d
            }
        }
        guard isObject, !bad, let time, let address, let rssi, let data else { return nil }
        return AdvertisingReport(time: time, address: address, rssi: rssi, data: data)
    }

    /// `AA:BB:CC:DD:EE:FF` in either case.
    static func deviceAddress(_ s: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard s.count == 17 else { return nil }
        var value: UInt64 = 0
        for k in 0..<6 {
            guard k == 0 || s[3 * k - 1] == UInt8(ascii: ":"),
                  let high = hexDigit(s[3 * k]), let low = hexDigit(s[3 * k + 1]) else { return nil }
            value = value << 8 | UInt64(high << 4 | low)
        }
        return value
    }

    static func hexBytes(_ s: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard s.count % 2 == 0 else { return nil }
        var out = [UInt8](repeating: 0, count: s.count / 2)
        for k in 0..<out.count {
            guard let high = hexDigit(s[2 * k]), let low = hexDigit(s[2 * k + 1]) else { return nil }
            out[k] = high << 4 | low
        }
        return out
    }

    @inline(__always) static func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
