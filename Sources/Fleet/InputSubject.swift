/// What a message of the fixes stream is, told by its subject (after the servers' mapping).
enum InputSubject: Equatable {
    /// `geowake.in.P.fix.DEVICE` → DEVICE; `geowake.in.P.owntracks.USER.DEVICE` → `owntracks.USER.DEVICE`.
    case fix(device: String)
    /// `geowake.in.P.regions`: a region set changed; the payload says which revision.
    case regions
    /// `geowake.in.P.assignments`: the assignment of region sets to devices changed.
    case assignments
    case unknown

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
