import GeoWakeProtocol

/// start/stop of the standard, significant-change and visit services.
extension DaemonCore {
    /// Starting a service again with its options unchanged keeps its state (a relaunched subscriber starts its
    /// services again); other options start it afresh.
    func startService(_ kind: ServiceKind, _ request: Request) throws -> OperationOutcome {
        let client = try request.client()
        let configuration = try ServiceConfiguration(kind, options: request.fields)
        guard services.configuration(of: kind, for: client) != configuration else { return .reply([:]) }
        return .write(RequestWrite(changes: [.startService(kind, options: configuration.json, client)])) { [self] _ in
            services.start(configuration, for: client)
            return [:]
        }
    }

    func stopService(_ kind: ServiceKind, _ request: Request) throws -> OperationOutcome {
        let client = try request.client()
        return .write(RequestWrite(changes: [.stopService(kind, client)])) { [self] _ in
            services.stop(kind, for: client)
            return [:]
        }
    }
}
