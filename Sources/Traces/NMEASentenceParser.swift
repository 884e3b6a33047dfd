#if canImport(Glibc)
import GeoWakeCore
import Glibc
#endif

/// Checks one framed sentence (the bytes after its `$`) and hands its fields to the sentence
/// handlers, which merge them into the current epoch. `NMEAReader` does the framing.
struct NMEASentenceParser: Sendable {
    /// Longest sentence body accepted. NMEA allows 82 characters per line; survey receivers with
    /// 8-decimal minutes and multi-constellation GSV exceed that, so the cap is generous but bounded.
    static let maximumBodyLength = 250

    var statistics = TraceStatistics()
    var epoch = NMEAEpoch()
    var calendar = NMEACalendar()
    var timeMemo = NMEAFieldMemo<Int32?>()
    var positionMemo = NMEAFieldMemo<NMEAPosition?>()
    var dateMemo = NMEAFieldMemo<Int?>()
    var ggaShape = NMEAGGAShape()
    var rmcShape = NMEARMCShape()
    /// Once a stream has sent one checksummed sentence, a sentence without one is a truncated line.
    private var checksumsSeen = false

    /// `segment` runs from just after `$` to the next `$` or the end of the line. `lineEnded` says the
    /// line terminator was seen, so the sentence is complete even without a checksum.
    mutating func process(_ segment: UnsafePointer<UInt8>, count: Int, lineEnded: Bool, _ emit: (Fix) -> Void) {
        if count == 0 { return }   // the first `$` of `$$` framing
        statistics.sentences += 1
        let searched = min(count, NMEASentenceParser.maximumBodyLength + 1)
        if let found = memchr(segment, Int32(UInt8(ascii: "*")), searched) {
            let star = found.assumingMemoryBound(to: UInt8.self)
            processChecked(segment, bodyCount: UnsafePointer(star) - segment, count: count, emit)
        } else {
            var bodyCount = count
            while bodyCount > 0 && segment[bodyCount - 1] <= UInt8(ascii: " ") { bodyCount -= 1 }
            guard !checksumsSeen, lineEnded, bodyCount <= NMEASentenceParser.maximumBodyLength else {
                statistics.malformed += 1
                return
            }
            statistics.unchecked += 1
            dispatch(segment, bodyCount, emit)
        }
    }

    /// A sentence whose first `*` is at `bodyCount` (at most `maximumBodyLength`): its checksum is checked,
    /// then it is dispatched.
    mutating func processChecked(_ segment: UnsafePointer<UInt8>, bodyCount: Int, count: Int, _ emit: (Fix) -> Void) {
        guard verify(segment, bodyCount: bodyCount, count: count, checksum: NMEASentenceParser.checksum(segment, bodyCount))
        else { return }
        dispatch(segment, bodyCount, emit)
    }

    /// Whether the two hex digits after the `*` at `bodyCount` match `checksum`; counts the sentence when not.
    @inline(__always)
    mutating func verify(_ segment: UnsafePointer<UInt8>, bodyCount: Int, count: Int, checksum: UInt8) -> Bool {
        guard bodyCount + 3 <= count, let high = hexValue(segment[bodyCount + 1]), let low = hexValue(segment[bodyCount + 2]) else {
            statistics.malformed += 1
            return false
        }
        guard checksum == high << 4 | low else {
            statistics.checksumErrors += 1
            return false
        }
        checksumsSeen = true
        return true
    }

    /// XOR of the body bytes, sixteen, then eight at a time.
    static func checksum(_ body: UnsafePointer<UInt8>, _ count: Int) -> UInt8 {
        var wide: UInt64 = 0
        var i = 0
        let raw = UnsafeRawPointer(body)
        while i &+ 16 <= count {
            wide ^= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                ^ raw.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self)
            i &+= 16
        }
        if i &+ 8 <= count {
            wide ^= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i &+= 8
        }
        // The last 1…7 bytes: the word ending at the body's end, with the bytes already summed
        // shifted out. Its length varies by sentence, so a byte loop here mispredicted its exit.
        if i < count && count >= 8 {
            let last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            wide ^= last >> (8 * (8 - (count - i)))
            i = count
        }
        wide ^= wide >> 32
        wide ^= wide >> 16
        wide ^= wide >> 8
        var sum = UInt8(truncatingIfNeeded: wide)
        while i < count {
            sum ^= body[i]
            i += 1
        }
        return sum
    }

    /// Either case. Two range checks on offsets rather than a three-way switch: this runs twice a sentence.
    @inline(__always) private func hexValue(_ c: UInt8) -> UInt8? {
        let digit = c &- UInt8(ascii: "0")
        if digit < 10 { return digit }
        let letter = (c | 0x20) &- UInt8(ascii: "a")   // | 0x20 lower-cases a letter
        return letter < 6 ? letter + 10 : nil
    }

    mutating func dispatch(_ body: UnsafePointer<UInt8>, _ count: Int, _ emit: (Fix) -> Void) {
        // The address ("GPGGA") is checked in place rather than found by scanning for its comma.
        // Proprietary (`$P…`) and query sentences, and any address not of five characters, carry
        // nothing we read.
        guard count >= 5, count == 5 || body[5] == UInt8(ascii: ","), body[0] != UInt8(ascii: "P") else { return }
        var isUppercase = true
        for i in 0..<5 {
            if body[i] == UInt8(ascii: ",") { return }
            if !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(body[i]) { isUppercase = false }
        }
        guard isUppercase else {
            statistics.malformed += 1
            return
        }
        var fields = NMEAFields(body, count: count)
        fields.skipAddress()
        let type = UInt32(body[2]) << 16 | UInt32(body[3]) << 8 | UInt32(body[4])
        let accepted: Bool
        switch type {
        case NMEASentenceParser.gga: accepted = gga(&fields, emit)
        case NMEASentenceParser.rmc: accepted = rmc(&fields, emit)
        case NMEASentenceParser.gll: accepted = gll(&fields, emit)
        case NMEASentenceParser.gns: accepted = gns(&fields, emit)
        case NMEASentenceParser.vtg: accepted = vtg(&fields)
        case NMEASentenceParser.gsa: accepted = gsa(&fields)
        case NMEASentenceParser.gst: accepted = gst(&fields)
        case NMEASentenceParser.zda: accepted = zda(&fields)
        default: accepted = true
        }
        if !accepted { statistics.malformed += 1 }
    }

    private static func code(_ s: StaticString) -> UInt32 {
        s.withUTF8Buffer { UInt32($0[0]) << 16 | UInt32($0[1]) << 8 | UInt32($0[2]) }
    }
    static let gga = code("GGA"), rmc = code("RMC"), gll = code("GLL"), gns = code("GNS")
    private static let vtg = code("VTG"), gsa = code("GSA"), gst = code("GST"), zda = code("ZDA")

    /// Moves to the epoch of `timeOfDay` (reporting the previous one) unless it is the current one.
    /// Sentences without a time belong to the current epoch.
    mutating func enter(_ timeOfDay: Int32?, _ emit: (Fix) -> Void) {
        guard let timeOfDay, timeOfDay != epoch.timeOfDay else { return }
        if epoch.timeOfDay >= 0 {
            report(emit)
            epoch = NMEAEpoch(timeOfDay: timeOfDay)
        } else if epoch.isClosed {
            epoch = NMEAEpoch(timeOfDay: timeOfDay)
        } else {
            epoch.timeOfDay = timeOfDay   // untimed sentences seen so far open this epoch
        }
        calendar.advance(to: timeOfDay)
    }

    /// Emits the current epoch if it is a fix, and closes it.
    mutating func report(_ emit: (Fix) -> Void) {
        if epoch.isFix {
            emit(epoch.fix(time: calendar.timestamp(timeOfDay: epoch.timeOfDay)))
            statistics.fixes += 1
        }
        epoch = NMEAEpoch(timeOfDay: epoch.timeOfDay)
        epoch.isClosed = true
    }
}
