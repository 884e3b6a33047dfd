import GeoWakeCore
import Geofencing
import JSONLines
import LocationServices
import RegionIndex

/// One device's services: the very `ServiceReplay` values `geowake replay` drives, one region monitor per
/// region set the device is assigned, and the standard, significant-change and visit services the fleet
/// runs. Fed that device's fixes in the order they were published.
struct DeviceServices {
    struct SetMonitor {
        let set: String
        var replay: ServiceReplay<RegionMonitor<RegionIndex>>
    }

    private(set) var regionSets: [SetMonitor] = []
    /// None or one: the fix services, out of line. A device's value sits in its partition's dictionary, whose
    /// slots are as large as the value and half of them empty on average; inline, these three took 392 of
    /// a device's 409 bytes there, in fleets that mostly run none of them. The array shares nothing for long:
    /// only a checkpoint copies a device, and it does not feed it.
    private var fixServices: [FixServices] = []
    /// The time of the last fix fed; an earlier one is out of order.
    private(set) var lastTime: Timestamp?

    var standard: ServiceReplay<StandardLocationFilter>? { fixServices.first?.standard }
    var significant: ServiceReplay<SignificantChangeDetector>? { fixServices.first?.significant }
    var visits: ServiceReplay<VisitDetector>? { fixServices.first?.visits }

    /// A new device on `sets` (name and index, in the assignment's order).
    init(services: FleetServices, sets: [(String, RegionIndex)]) {
        if let configuration = services.regions {
            regionSets = sets.map { SetMonitor(set: $0.0, replay: ServiceReplay(RegionMonitor(regions: $0.1, configuration: configuration))) }
        }
        if let fixServices = FixServices(services) { self.fixServices = [fixServices] }
    }

    /// A device as checkpointed. Services the snapshot lacks (the fleet's configuration grew) start afresh;
    /// region sets come as `index` gives them, for the sets the snapshot names.
    init(services: FleetServices, snapshot: DeviceSnapshot, index: (String) throws -> RegionIndex) rethrows {
        self.init(services: services, sets: [])
        lastTime = snapshot.lastTime
        if let configuration = services.regions {
            regionSets = try snapshot.regionSets.map { set in
                var monitor = RegionMonitor(regions: try index(set.set), configuration: configuration)
                monitor.restore(set.monitor)
                return SetMonitor(set: set.set, replay: ServiceReplay(monitor))
            }
        }
        if !fixServices.isEmpty {
            if let memory = snapshot.standard { fixServices[0].standard?.service.memory = memory }
            if let memory = snapshot.significant { fixServices[0].significant?.service.memory = memory }
            if let memory = snapshot.visits { fixServices[0].visits?.service.memory = memory }
        }
    }

    func snapshot(id: String) -> DeviceSnapshot {
        DeviceSnapshot(id: id, lastTime: lastTime,
                       regionSets: regionSets.map { DeviceSnapshot.SetSnapshot(set: $0.set, monitor: $0.replay.service.snapshot()) },
                       standard: standard?.service.memory, significant: significant?.service.memory,
                       visits: visits?.service.memory)
    }

    var setNames: [String] { regionSets.map(\.set) }

    /// Feeds one fix (with a time, not before `lastTime`) to every service, writing each event's line (as
    /// `geowake replay --service …` prints it, without the newline) into `writer` and handing it to `line`.
    /// Region events carry `"set":"NAME"` first when the device monitors more than one set. The region
    /// monitors work in `buffers` (one set each, lent for the fix), so that a device keeps none of its own.
    mutating func feed(_ fix: Fix, writer: inout JSONLineWriter, buffers: inout [RegionMonitorBuffers],
                       line: (ArraySlice<UInt8>) throws -> Void) throws {
        lastTime = fix.time
        let namesSets = regionSets.count > 1
        while buffers.count < regionSets.count { buffers.append(RegionMonitorBuffers()) }
        for i in regionSets.indices {
            let set = regionSets[i].set
            regionSets[i].replay.service.exchangeBuffers(with: &buffers[i])
            defer { regionSets[i].replay.service.exchangeBuffers(with: &buffers[i]) }
            try regionSets[i].replay.feed(fix) { events in
                for event in events {
                    writer.removeAll()
                    writer.regionEventLine(event)
                    try line(Self.line(writer.bytes, set: namesSets ? set : nil))
                }
            }
        }
        if !fixServices.isEmpty { try fixServices[0].feed(fix, writer: &writer, line: line) }
    }

    /// Lets go of what the services keep only for their next fix: the event buffers (the device's first fix
    /// alone fills one with dozens of `enter`s) and the region monitors' recent measurements (their scratch
    /// arrays are lent by the partition for each fix). A worker holds thousands of devices between their
    /// messages; these were about a third of each device's memory.
    mutating func releaseBuffers() {
        for i in regionSets.indices {
            regionSets[i].replay.releaseEventBuffer()
            regionSets[i].replay.service.releaseBuffers()
        }
        if !fixServices.isEmpty { fixServices[0].releaseEventBuffers() }
    }

    /// Moves the device's monitor of `set` onto another version of it. Regions gone from it that the device
    /// is inside end with their `regionRemoved` exit (what `RegionMonitor.remove` reports), stamped with the
    /// device's last fix, so re-processing gives the same events; the rest keep their state by id.
    mutating func switchRegions(of set: String, to regions: RegionIndex, events: inout [RegionEvent]) {
        guard let i = regionSets.firstIndex(where: { $0.set == set }) else { return }
        var monitor = regionSets[i].replay.service
        if let now = lastTime {
            let removed = monitor.snapshot().regions.filter { $0.insideSince != nil && regions.handle(forID: $0.id) == nil }
            for record in removed {
                if let handle = monitor.regions.handle(forID: record.id) { monitor.remove(handle, at: now, events: &events) }
            }
        }
        var next = RegionMonitor(regions: regions, configuration: monitor.configuration)
        next.restore(monitor.snapshot())
        regionSets[i].replay = ServiceReplay(next)
    }

    /// Puts the device on another list of sets: a set it leaves ends like a set emptied (its `regionRemoved`
    /// exits), a set it joins starts afresh; `ended` hears each left set's events as that set's lines.
    mutating func assign(_ sets: [(String, RegionIndex)], services: FleetServices,
                         ended: (_ set: String, _ events: [RegionEvent]) throws -> Void) rethrows {
        guard let configuration = services.regions, sets.map(\.0) != setNames else { return }
        var kept: [SetMonitor] = []
        for (name, index) in sets {
            if let existing = regionSets.first(where: { $0.set == name }) {
                kept.append(existing)
            } else {
                kept.append(SetMonitor(set: name, replay: ServiceReplay(RegionMonitor(regions: index, configuration: configuration))))
            }
        }
        for left in regionSets where !sets.contains(where: { $0.0 == left.set }) {
            var events: [RegionEvent] = []
            var emptied = self
            emptied.switchRegions(of: left.set, to: RegionIndex(), events: &events)
            if !events.isEmpty { try ended(left.set, events) }
        }
        regionSets = kept
    }

    /// A region event's line with `"set":"NAME"` put first, when one is given.
    static func line(_ bytes: [UInt8], set: String?) -> ArraySlice<UInt8> {
        guard let set else { return bytes.dropLast() }
        var named = JSONLineWriter(reservingCapacity: bytes.count + set.utf8.count + 10)
        named.beginObject()
        named.field("set", set)
        var out = named.bytes
        out.append(UInt8(ascii: ","))
        out.append(contentsOf: bytes.dropFirst().dropLast())
        return out[...]
    }
}

/// A device's services as checkpointed.
struct DeviceSnapshot: Equatable {
    struct SetSnapshot: Equatable {
        var set: String
        var monitor: RegionMonitorSnapshot
    }

    var id: String
    var lastTime: Timestamp?
    var regionSets: [SetSnapshot]
    var standard: ReportMemory?
    var significant: ReportMemory?
    var visits: VisitDetector.Memory?
}
