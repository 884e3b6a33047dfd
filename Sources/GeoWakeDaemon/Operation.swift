import GeoWakeProtocol

/// Every request the daemon answers, by its `op`; `perform` is the one place an op meets the code that carries it out.
enum Operation: String, CaseIterable {
    case hello, register, unregister, ack
    case startStandard, stopStandard, startSignificant, stopSignificant, startVisits, stopVisits
    case monitor, stopMonitoring, regionState
    case startRangingBeacons, stopRangingBeacons
    case list, subscriptions, clients, status, disable, enable
    case beginBackgroundTask, endBackgroundTask
    case setBackgroundFetch, completeBackgroundFetch

    /// The requests that make a client need fixes.
    var subscribes: Bool { [.startStandard, .startSignificant, .startVisits, .monitor].contains(self) }
}

extension DaemonCore {
    func perform(_ operation: Operation, _ request: Request) throws -> OperationOutcome {
        switch operation {
        case .hello: .reply(try hello(request))
        case .register: try register(request)
        case .unregister: try unregister(request)
        case .ack: try ack(request)
        case .startStandard: try startService(.standard, request)
        case .stopStandard: try stopService(.standard, request)
        case .startSignificant: try startService(.significant, request)
        case .stopSignificant: try stopService(.significant, request)
        case .startVisits: try startService(.visits, request)
        case .stopVisits: try stopService(.visits, request)
        case .monitor: try monitor(request)
        case .stopMonitoring: try stopMonitoring(request)
        case .regionState: .reply(try regionState(request))
        case .startRangingBeacons: try startRangingBeacons(request)
        case .stopRangingBeacons: try stopRangingBeacons(request)
        case .list: .reply(try list(request))
        case .subscriptions: .reply(try subscriptions(request))
        case .clients: .reply(try clients(request))
        case .status: .reply(try status(request))
        case .disable: try disable(request)
        case .enable: try enable(request)
        case .beginBackgroundTask: .reply(try beginBackgroundTask(request))
        case .endBackgroundTask: .reply(try endBackgroundTask(request))
        case .setBackgroundFetch: .reply(try setBackgroundFetch(request))
        case .completeBackgroundFetch: .reply(try completeBackgroundFetch(request))
        }
    }
}
