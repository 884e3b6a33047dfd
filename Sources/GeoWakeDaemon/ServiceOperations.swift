import GeoWakeProtocol

/// start/stop of the standard, significant-change and visit services.
extension DaemonCore {
    /// Starting a service again with its options unchanged keeps its state (a relaunched subscriber starts its
    /// services again); other options start it afresh.
    func startService(_ kind: ServiceKind, _ request: Request) throws -> [String: JSONValue] {
        let client = try request.client()
        let configuration = try ServiceConfiguration(kind, options: request.fields)
        guard services.configuration(of: kind, for: client) != configuration else { return [:] }
        try storeWrite { transaction in try transaction.save(SubscriptionRecord(client, kind: kind, options: configuration.json)) }
        services.start(configuration, for: client)
        return [:]
    }

    func stopService(_ kind: ServiceKind, _ request: Request) throws -> [String: JSONValue] {
        let client = try request.client()
        try storeWrite { transaction in try transaction.deleteSubscription(kind, of: client) }
        services.stop(kind, for: client)
        return [:]
    }
}
