/// Every client's `AppRecord` by name, as a dictionary that also remembers which names it changed: the daemon
/// stores the records after each turn, and with a thousand clients comparing every record each turn cost more than
/// the turn's own work.
public struct AppRecords: Sequence, Sendable {
    private var records: [String: AppRecord] = [:]
    /// Names whose record was set, changed or removed since the last `takeChanged()`.
    private var changed: Set<String> = []
    /// Names of the records a turn looks at (`hasDeadlines`), kept as records change: a turn's passes over every
    /// record (a filter copying each) were a twentieth of registering a thousand clients' regions.
    private(set) var timed: Set<String> = []

    public init() {}

    public subscript(name: String) -> AppRecord? {
        get { records[name] }
        _modify {
            changed.insert(name)
            defer {
                if records[name]?.hasDeadlines == true { timed.insert(name) } else { timed.remove(name) }
            }
            yield &records[name]
        }
    }

    public var keys: Dictionary<String, AppRecord>.Keys { records.keys }
    public var values: Dictionary<String, AppRecord>.Values { records.values }
    public var count: Int { records.count }

    public func filter(_ isIncluded: ((key: String, value: AppRecord)) throws -> Bool) rethrows -> [String: AppRecord] {
        try records.filter(isIncluded)
    }

    public func makeIterator() -> Dictionary<String, AppRecord>.Iterator { records.makeIterator() }

    /// The names changed since the last call, which starts a new count.
    public mutating func takeChanged() -> Set<String> {
        defer { changed = [] }
        return changed
    }
}

extension AppRecord {
    /// Whether a turn may have something to do for it: a state with a deadline (background, terminating, crash loop),
    /// suspended (counted against `maxSuspended`), or a background fetch scheduled.
    var hasDeadlines: Bool {
        switch state {
        case .background, .terminating, .crashLoop, .suspended: true
        case .notRunning, .running: fetch != nil
        }
    }
}
