#if canImport(Glibc)
import GeoWakeCore
import Glibc
#endif

/// A streaming NMEA 0183 reader: bytes in, one `Fix` per epoch out.
///
/// Framing: a sentence starts at `$` (so `$$` framing, noise and binary junk before it are skipped)
/// and ends at the line feed, or at the next `$` when a receiver restarted mid-line. Lines that start
/// with `#` are comments. A sentence split across `consume` calls is carried over, up to the length cap.
/// Checksums are verified (either hex case). A sentence without one is accepted only while the stream
/// has sent no checksummed sentence yet (old receivers never send them, and gpsd accepts them); once
/// checksums have been seen, a sentence without one is a truncated line and is dropped as malformed.
/// Sentences over 250 bytes are dropped as malformed.
///
/// Sentences of one epoch (the same UTC time of day) merge into one fix, reported when the next epoch
/// begins, on `flush` or on `finish`; a void RMC, a GGA of quality 0, a GLL with status `V` or a GNS
/// whose modes are all `N` voids its epoch. The date comes from RMC and ZDA (see `NMEACalendar` for
/// midnight, two-digit years and why no week-rollover guess is made); the horizontal accuracy from GST,
/// else HDOP times `NMEAEpoch.userEquivalentRangeError`. State (date, pending epoch, a partial sentence)
/// persists across calls; the output depends only on the bytes, not on how they were split.
public struct NMEAReader: Sendable {
    private var parser = NMEASentenceParser()
    /// The bytes after the `$` of a sentence the previous chunk ended in.
    private var carry: [UInt8] = []
    private var isCarrying = false
    private var carryIsOverlong = false
    /// Skipping the rest of a `#` comment line that the previous chunk ended in.
    private var isInComment = false
    /// The previous chunk ended inside a line.
    private var isMidLine = false

    public init() {
        carry.reserveCapacity(NMEAReader.carryCapacity)
    }

    public var statistics: TraceStatistics { parser.statistics }

    /// Body, checksum and line end (with room for stray bytes before it).
    private static let carryCapacity = NMEASentenceParser.maximumBodyLength + 16

    public mutating func consume(_ bytes: UnsafeRawBufferPointer, _ emit: (Fix) -> Void) {
        guard let raw = bytes.baseAddress, bytes.count > 0 else { return }
        let base = raw.assumingMemoryBound(to: UInt8.self)
        let end = base + bytes.count
        var p = base
        var atLineStart = !isMidLine
        if isInComment {
            guard let lineFeed = find(UInt8(ascii: "\n"), p, end) else { return }
            isInComment = false
            p = lineFeed + 1
            atLineStart = true
        } else if isCarrying {
            let lineFeed = find(UInt8(ascii: "\n"), p, end)
            let lineEnd = lineFeed ?? end
            let restart = find(UInt8(ascii: "$"), p, lineEnd)
            appendCarry(p, restart ?? lineEnd)
            if restart == nil && lineFeed == nil { return }
            finishCarry(lineEnded: restart == nil, emit)
            if let restart {
                p = restart
                atLineStart = false
            } else {
                p = lineEnd + 1
                atLineStart = true
            }
        }
        while p < end {
            if atLineStart && p.pointee == UInt8(ascii: "$"),
               let line = NMEALineScan(p + 1, end, maximumBody: NMEASentenceParser.maximumBodyLength) {
                parser.statistics.sentences += 1
                parser.processCommon(p + 1, line, emit)
                p += line.lineFeed + 2
                continue
            }
            let lineFeed = find(UInt8(ascii: "\n"), p, end)
            processLine(p, lineFeed ?? end, atLineStart: atLineStart, lineEnded: lineFeed != nil, emit)
            guard let lineFeed else {
                isMidLine = true
                return
            }
            p = lineFeed + 1
            atLineStart = true
        }
        isMidLine = false
    }

    /// Reports the pending epoch now (a live source calls this when the line goes quiet); the date
    /// is kept, and later sentences with the same time of day are not reported again.
    public mutating func flush(_ emit: (Fix) -> Void) {
        parser.report(emit)
    }

    /// End of input: a final sentence without a line feed still counts, then the pending epoch is reported.
    public mutating func finish(_ emit: (Fix) -> Void) {
        if isCarrying { finishCarry(lineEnded: true, emit) }
        isInComment = false
        isMidLine = false
        parser.report(emit)
    }

    private func find(_ byte: UInt8, _ from: UnsafePointer<UInt8>, _ to: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        guard from < to, let hit = memchr(from, Int32(byte), to - from) else { return nil }
        return UnsafePointer(hit.assumingMemoryBound(to: UInt8.self))
    }

    private mutating func processLine(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>,
                                      atLineStart: Bool, lineEnded: Bool, _ emit: (Fix) -> Void) {
        if atLineStart && start < end && start.pointee == UInt8(ascii: "#") {
            if !lineEnded { isInComment = true }
            return
        }
        // Nearly every line starts with its `$`: no need to search for it.
        guard start < end, var dollar = start.pointee == UInt8(ascii: "$") ? start : find(UInt8(ascii: "$"), start, end)
        else { return }
        while true {
            let segment = dollar + 1
            if let next = find(UInt8(ascii: "$"), segment, end) {
                parser.process(segment, count: next - segment, lineEnded: false, emit)
                dollar = next
            } else if lineEnded {
                parser.process(segment, count: end - segment, lineEnded: true, emit)
                return
            } else {
                carry.removeAll(keepingCapacity: true)
                isCarrying = true
                carryIsOverlong = false
                appendCarry(segment, end)
                return
            }
        }
    }

    private mutating func appendCarry(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) {
        guard !carryIsOverlong else { return }
        let count = end - start
        if carry.count + count > NMEAReader.carryCapacity {
            carryIsOverlong = true
            carry.removeAll(keepingCapacity: true)
        } else if count > 0 {
            carry.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
        }
    }

    private mutating func finishCarry(lineEnded: Bool, _ emit: (Fix) -> Void) {
        isCarrying = false
        if carryIsOverlong {
            parser.statistics.sentences += 1
            parser.statistics.malformed += 1
            return
        }
        guard !carry.isEmpty else { return }
        carry.withUnsafeBufferPointer { sentence in
            parser.process(sentence.baseAddress!, count: sentence.count, lineEnded: lineEnded, emit)
        }
    }
}
