import GeoWakeCore
import RegionIndex

extension RegionEvent {
    /// The order in which the region monitor reports events: the contract's, extended for time and crossings.
    /// By time first (events that fell due between fixes come before the fix's own); then exits, crossings
    /// (each its `enter` then its `exit`: the device passed through them after leaving the old regions and
    /// before reaching the new), enters, dwells; then by the byte order of the region id.
    public static func monitorOrder(_ a: RegionEvent, _ b: RegionEvent) -> Bool {
        let ta = a.fix.time?.millisecondsSince1970 ?? .min, tb = b.fix.time?.millisecondsSince1970 ?? .min
        if ta != tb { return ta < tb }
        let ra = a.monitorRank, rb = b.monitorRank
        if ra != rb { return ra < rb }
        let order = String.compareUTF8(a.regionID, b.regionID)
        if order != 0 { return order < 0 }
        return a.kind == .enter && b.kind == .exit
    }

    /// Sorts `events[first...]` into `monitorOrder`, stably. A fix's events usually come in that order already
    /// (in handle order, which is id order when a regions file lists its ids in order): then a look at each pair
    /// replaces the sort, whose buffer and moves of whole events were most of its cost.
    static func sortInMonitorOrder(_ events: inout [RegionEvent], from first: Int) {
        var i = first + 1
        while i < events.count, !monitorOrder(events[i], events[i - 1]) { i += 1 }
        if i < events.count { events[first...].sort(by: monitorOrder) }
    }

    private var monitorRank: Int {
        if crossed { return 1 }
        switch kind {
        case .exit: return 0
        case .enter: return 2
        case .dwell: return 3
        }
    }
}
