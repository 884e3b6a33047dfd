/// `list` (the caller's client) and `subscriptions` (a client of the caller's uid): the client's subscriptions, and one
/// page of its regions, geographic and beacon, in byte order of their ids, each as `regionState` describes it. `more`
/// says a next page follows: ask again with `after` set to this page's last id (`RegionPageRequest`).
public struct RegionListReply: Hashable, Sendable {
    /// A running service or region kind (`standard`, `significant`, `visits`, `regions`, `ranging`) with the options
    /// it runs with.
    public struct Subscription: Hashable, Sendable {
        public var kind: String
        public var options: [String: JSONValue]

        public init(kind: String, options: [String: JSONValue] = [:]) {
            self.kind = kind
            self.options = options
        }
    }

    public var subscriptions: [Subscription]
    public var regions: [RegionStateReply]
    public var more: Bool

    public init(subscriptions: [Subscription], regions: [RegionStateReply], more: Bool = false) {
        self.subscriptions = subscriptions
        self.regions = regions
        self.more = more
    }

    /// `more` is sent only when true.
    public var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "subscriptions": .array(subscriptions.map { ["kind": .string($0.kind), "options": .object($0.options)] }),
            "regions": .array(regions.map { .object($0.fields) }),
        ]
        if more { fields["more"] = true }
        return fields
    }

    public init?(fields: [String: JSONValue]) {
        guard let subscriptions = fields["subscriptions"]?.array, let regions = fields["regions"]?.array else { return nil }
        var kinds: [Subscription] = []
        for entry in subscriptions {
            guard let kind = entry["kind"]?.string else { return nil }
            kinds.append(Subscription(kind: kind, options: entry["options"]?.object ?? [:]))
        }
        var states: [RegionStateReply] = []
        for entry in regions {
            guard let state = entry.object.flatMap(RegionStateReply.init(fields:)) else { return nil }
            states.append(state)
        }
        self.init(subscriptions: kinds, regions: states, more: fields["more"] == true)
    }
}
