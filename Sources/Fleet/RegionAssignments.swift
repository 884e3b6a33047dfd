/// Which region sets each device monitors: configuration, kept in the assignments bucket and changed at
/// one place in every partition's input (as region sets are). Without any, every device monitors the
/// worker's `--region-set`.
///
/// The text, one rule a line (`#` starts a comment; sets separated by commas, none for no region monitoring):
///
///     default  city
///     prefix   van-     city,depots
///     device   van-7    depots
///     prefix   bike-
///
/// A device's own `device` line wins, then the longest `prefix` its id starts with, then `default`
/// (or, with no `default` line, the worker's `--region-set`).
public struct RegionAssignments: Sendable, Equatable {
    public var defaultSets: [String]?
    public var devices: [String: [String]] = [:]
    /// Longest prefix first, so the first that matches is the one that applies.
    public private(set) var prefixes: [(prefix: String, sets: [String])] = []

    public init(defaultSets: [String]? = nil) {
        self.defaultSets = defaultSets
    }

    public static func == (a: RegionAssignments, b: RegionAssignments) -> Bool {
        a.defaultSets == b.defaultSets && a.devices == b.devices
            && a.prefixes.map(\.prefix) == b.prefixes.map(\.prefix) && a.prefixes.map(\.sets) == b.prefixes.map(\.sets)
    }

    public mutating func assign(prefix: String, _ sets: [String]) {
        prefixes.removeAll { $0.prefix == prefix }
        prefixes.append((prefix, sets))
        prefixes.sort { $0.prefix.utf8.count != $1.prefix.utf8.count ? $0.prefix.utf8.count > $1.prefix.utf8.count : $0.prefix < $1.prefix }
    }

    /// The sets `device` monitors, in the order named; `fallback` when no line applies.
    public func sets(for device: String, fallback: [String]) -> [String] {
        if let own = devices[device] { return own }
        if let rule = prefixes.first(where: { device.hasPrefix($0.prefix) }) { return rule.sets }
        return defaultSets ?? fallback
    }

    /// Reads the text above; the error names the line and what was expected there.
    public init(text: String) throws {
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let kind = words.first else { continue }
            let problem = { (what: String) in FleetError("assignments, line \(number + 1): \(what)") }
            let sets = { (at: Int) throws -> [String] in
                guard words.count <= at + 1 else { throw problem("expected at most one list of sets after \(kind) (SET,SET,…)") }
                let names = words.count > at ? words[at].split(separator: ",").map(String.init) : []
                if let bad = names.first(where: { !Self.isSetName($0) }) { throw problem("\"\(bad)\" is not a region set name") }
                return names
            }
            switch kind {
            case "default":
                guard defaultSets == nil else { throw problem("a second default line") }
                defaultSets = try sets(1)
            case "prefix", "device":
                guard words.count >= 2 else { throw problem("expected \(kind) NAME [SET,SET,…]") }
                if kind == "device" {
                    guard devices[words[1]] == nil else { throw problem("device \(words[1]) assigned twice") }
                    devices[words[1]] = try sets(2)
                } else {
                    guard !prefixes.contains(where: { $0.prefix == words[1] }) else { throw problem("prefix \(words[1]) assigned twice") }
                    assign(prefix: words[1], try sets(2))
                }
            default:
                throw problem("expected default, prefix or device, found \"\(kind)\"")
            }
        }
    }

    /// The text form, rules in a fixed order, read back by `init(text:)` as the same value.
    public var text: String {
        var lines: [String] = []
        if let defaultSets { lines.append("default \(defaultSets.joined(separator: ","))") }
        for rule in prefixes.sorted(by: { $0.prefix < $1.prefix }) { lines.append("prefix \(rule.prefix) \(rule.sets.joined(separator: ","))") }
        for (device, sets) in devices.sorted(by: { $0.key < $1.key }) { lines.append("device \(device) \(sets.joined(separator: ","))") }
        return lines.map { $0.hasSuffix(" ") ? String($0.dropLast()) : $0 }.joined(separator: "\n") + "\n"
    }

    /// A set's name is a key of the regions bucket: letters, digits, `-`, `_`, `=` and `/`, no dots.
    static func isSetName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D || c == 0x5F
                || c == 0x3D || c == 0x2F
        }
    }
}
