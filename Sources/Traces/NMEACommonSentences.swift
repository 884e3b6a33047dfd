import GeoWakeCore

/// GGA and RMC, most of what a receiver sends, read from a common line (`NMEALineScan`) without a second pass
/// over its bytes: the checksum and commas come from the scan, the fields from the digits alone when the line has the
/// shape of the last one of its type (`NMEAGGAShape`, `NMEARMCShape`), else from `NMEACommonFields`. A sentence that
/// reader does not vouch for, and every other sentence, is dispatched as from the general framing.
extension NMEASentenceParser {
    mutating func processCommon(_ body: UnsafePointer<UInt8>, _ line: NMEALineScan, _ emit: (Fix) -> Void) {
        guard verify(body, bodyCount: line.star, count: line.lineFeed, checksum: line.checksum) else { return }
        if line.star <= NMEALineScan.commaLimit, line.star >= 6 {
            switch NMEASentenceParser.commonType(body) {
            case NMEASentenceParser.gga: if mergeGGA(body, line, emit) { return }
            case NMEASentenceParser.rmc: if mergeRMC(body, line, emit) { return }
            default: break
            }
        }
        dispatch(body, line.star, emit)
    }

    /// Reads and merges in one function, so that the sentence's values go to the epoch without a round trip through
    /// memory (stored field by field and loaded whole, which stalls).
    @inline(never) private mutating func mergeGGA(_ body: UnsafePointer<UInt8>, _ line: NMEALineScan, _ emit: (Fix) -> Void) -> Bool {
        guard let gga = commonGGA(body, line) else { return false }
        merge(gga, emit)
        return true
    }

    @inline(never) private mutating func mergeRMC(_ body: UnsafePointer<UInt8>, _ line: NMEALineScan, _ emit: (Fix) -> Void) -> Bool {
        guard let rmc = commonRMC(body, line) else { return false }
        merge(rmc, emit)
        return true
    }

    @inline(__always) private mutating func commonGGA(_ body: UnsafePointer<UInt8>, _ line: NMEALineScan) -> NMEAGGA? {
        if let gga = ggaShape.read(body, star: line.star, &timeMemo, &positionMemo) { return gga }
        guard let gga = readGGA(body, line) else { return nil }
        ggaShape.learn(body, line)
        return gga
    }

    @inline(__always) private mutating func commonRMC(_ body: UnsafePointer<UInt8>, _ line: NMEALineScan) -> NMEARMC? {
        if let rmc = rmcShape.read(body, star: line.star, &positionMemo, &dateMemo) { return rmc }
        guard let rmc = readRMC(body, line) else { return nil }
        rmcShape.learn(body, line, rmc)
        return rmc
    }

    /// A GGA or RMC this reader vouches for, else nil (what `processCommon` merges).
    mutating func readCommon(_ body: UnsafePointer<UInt8>, _ line: NMEALineScan) -> NMEACommonSentence? {
        guard line.star <= NMEALineScan.commaLimit, line.star >= 6 else { return nil }
        switch NMEASentenceParser.commonType(body) {
        case NMEASentenceParser.gga: return commonGGA(body, line).map { .gga($0) }
        case NMEASentenceParser.rmc: return commonRMC(body, line).map { .rmc($0) }
        default: return nil
        }
    }

    /// The sentence type (as `dispatch` codes it) of an address of five upper-case letters followed by a comma,
    /// not proprietary; 0 for any other. The caller checked that the body has six bytes before its `*`.
    @inline(__always) private static func commonType(_ body: UnsafePointer<UInt8>) -> UInt32 {
        let a = UInt8(ascii: "A")
        let notLetter = max(body[0] &- a, body[1] &- a, body[2] &- a, body[3] &- a, body[4] &- a) >= 26
        guard !notLetter, body[5] == UInt8(ascii: ","), body[0] != UInt8(ascii: "P") else { return 0 }
        return UInt32(body[2]) << 16 | UInt32(body[3]) << 8 | UInt32(body[4])
    }

    @inline(never) private mutating func readGGA(_ body: UnsafePointer<UInt8>, _ line: NMEALineScan) -> NMEAGGA? {
        var f = NMEACommonFields(body, line)
        let gga = NMEAGGA(timeOfDay: f.timeOfDay(&timeMemo), position: f.position(&positionMemo), quality: f.integer(maximum: 9),
                          satellites: f.integer(maximum: 99), hdop: f.decimal(Self.hdopRange),
                          altitude: f.decimal(Self.altitudeRange))
        return f.isVouched ? gga : nil
    }

    @inline(never) private mutating func readRMC(_ body: UnsafePointer<UInt8>, _ line: NMEALineScan) -> NMEARMC? {
        var f = NMEACommonFields(body, line)
        var rmc = NMEARMC(timeOfDay: f.timeOfDay(&timeMemo), status: f.character(), position: f.position(&positionMemo),
                          knots: f.decimal(Self.speedRange), course: f.decimal(Self.courseRange),
                          day: f.date(&dateMemo, calendar))
        f.skipOptional(2)   // magnetic variation and its direction
        rmc.faaMode = f.hasMoreFields ? f.first() : nil
        return f.isVouched ? rmc : nil
    }
}

enum NMEACommonSentence {
    case gga(NMEAGGA)
    case rmc(NMEARMC)
}
