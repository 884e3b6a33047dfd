import GeoWakeCore
import Geofencing
import RegionIndex

/// One device's region monitoring: the `ServiceReplay` over a `RegionMonitor` that `geowake replay` runs,
/// fed that device's fixes in the order they were published.
struct DeviceMonitor {
    var replay: ServiceReplay<RegionMonitor<RegionIndex>>

    init(regions: RegionIndex, configuration: RegionMonitorConfiguration) {
        replay = ServiceReplay(RegionMonitor(regions: regions, configuration: configuration))
    }

    init(regions: RegionIndex, configuration: RegionMonitorConfiguration, snapshot: RegionMonitorSnapshot) {
        var monitor = RegionMonitor(regions: regions, configuration: configuration)
        monitor.restore(snapshot)
        replay = ServiceReplay(monitor)
    }

    var lastTime: Timestamp? { replay.service.lastFix?.time }

    var snapshot: RegionMonitorSnapshot { replay.service.snapshot() }

    /// Moves the device onto another version of its region set. Regions gone from it that the device is
    /// inside end with their `regionRemoved` exit (what `RegionMonitor.remove` reports), stamped with the
    /// device's last fix, so re-processing gives the same events; the rest keep their state by id.
    mutating func switchRegions(to regions: RegionIndex, events: inout [RegionEvent]) {
        var monitor = replay.service
        if let now = lastTime {
            let removed = monitor.snapshot().regions.filter { $0.insideSince != nil && regions.handle(forID: $0.id) == nil }
            for record in removed {
                if let handle = monitor.regions.handle(forID: record.id) { monitor.remove(handle, at: now, events: &events) }
            }
        }
        self = DeviceMonitor(regions: regions, configuration: monitor.configuration, snapshot: monitor.snapshot())
    }
}
