#if canImport(Glibc)
import Glibc
#endif

/// What a message of the fixes stream is, told by its subject (after the servers' mapping).
enum InputSubject: Equatable {
    /// `geowake.in.P.fix.DEVICE` → DEVICE; `geowake.in.P.owntracks.USER.DEVICE` → `owntracks.USER.DEVICE`.
    case fix(device: String)
    /// `geowake.in.P.regions`: a region set changed; the payload says which revision.
    case regions
    /// `geowake.in.P.assignments`: the assignment of region sets to devices changed.
    case assignments
    case unknown

    /// The subject as the library holds it. Fixes, nearly every message, are read without splitting the
    /// subject into strings (that was an array and a string per message); the rest go the general way.
    init(bytes subject: UnsafeBufferPointer<UInt8>) {
        let prefix: StaticString = "geowake.in."
        let n = subject.count
        var i = prefix.utf8CodeUnitCount
        guard n > i, memcmp(subject.baseAddress!, prefix.utf8Start, i) == 0 else {
            self = .unknown
            return
        }
        let digits = i
        while i < n, subject[i] >= 0x30, subject[i] <= 0x39 { i += 1 }
        let fix: StaticString = ".fix."
        let tail = i + fix.utf8CodeUnitCount
        if i > digits, tail < n, memcmp(subject.baseAddress! + i, fix.utf8Start, fix.utf8CodeUnitCount) == 0,
           !UnsafeBufferPointer(rebasing: subject[tail...]).contains(0x2E) {
            self = .fix(device: String(decoding: UnsafeBufferPointer(rebasing: subject[tail...]), as: UTF8.self))
            return
        }
        self.init(String(decoding: subject, as: UTF8.self))
    }

    init(_ subject: String) {
        let tokens = subject.split(separator: ".", omittingEmptySubsequences: false)
        guard tokens.count >= 4, tokens[0] == "geowake", tokens[1] == "in", Int(tokens[2]) != nil else {
            self = .unknown
            return
        }
        switch (tokens[3], tokens.count) {
        case ("fix", 5) where !tokens[4].isEmpty: self = .fix(device: String(tokens[4]))
        case ("owntracks", 6) where !tokens[4].isEmpty && !tokens[5].isEmpty:
            self = .fix(device: tokens[3...].joined(separator: "."))
        case ("regions", 4): self = .regions
        case ("assignments", 4): self = .assignments
        default: self = .unknown
        }
    }
}
