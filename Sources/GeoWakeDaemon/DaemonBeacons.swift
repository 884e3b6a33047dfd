import Beacons
import GeoWakeCore

/// The decisions' beacon side: subscriptions, and the source's health as beacon subscribers last heard it.
struct DaemonBeacons {
    var subscriptions: BeaconSubscriptions
    /// The beacon source's description (the loop holds the source itself); nil without one.
    let sourceDescription: String?
    /// `idle` while no client monitors or ranges beacons, else `running`, `unavailable` or `ended`.
    var state = "idle"
    var message: String?
    var announced: String?
    var lastSighting: BeaconSighting?

    init(sourceDescription: String?, exitTimeout: Double) {
        self.sourceDescription = sourceDescription
        subscriptions = BeaconSubscriptions(exitTimeout: exitTimeout)
    }

    /// The store's `source` row for a beacon trace's position.
    var positionKey: String? { sourceDescription.map { "beacons " + $0 } }
}
