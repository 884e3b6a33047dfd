import GeoWakeCore
import Geofencing
import JSONLines
import JSONText
import RegionIndex

/// Where a partition's configuration comes from, at the revision its input announced: region sets (by
/// name) and the assignments of sets to devices.
struct PartitionSources {
    /// Revision 0: the set before any version was announced (empty, or the worker's own `--regions`).
    var regions: (_ set: String, _ revision: UInt64) throws -> RegionIndex
    var assignments: (_ revision: UInt64) throws -> RegionAssignments
}

/// One partition's devices and what its input did, advanced one message at a time. Pure: the message comes
/// in, the events go out through `emit`, region sets and assignments come from `sources`; nothing here
/// touches NATS.
struct PartitionState {
    let partition: Int
    let services: FleetServices
    /// The worker's `--region-set`: every device's set while no assignments were announced.
    let defaultSet: String
    private(set) var sequence: UInt64
    /// The latest revision announced in this partition's input, of every set.
    private(set) var regionSets: [String: UInt64]
    /// The latest revision of the assignments announced (0: none, every device on `defaultSet`).
    private(set) var assignmentsRevision: UInt64
    private(set) var assignments = RegionAssignments()
    /// The sets in use, each at the revision in force.
    private var indexes: [String: RegionIndex] = [:]
    private(set) var devices: [String: DeviceServices] = [:]
    private(set) var counts: InputCounts
    /// One line per unusable message since the caller last took them.
    var problems: [String] = []
    private var events: [RegionEvent] = []
    private var writer = JSONLineWriter(reservingCapacity: 512)
    /// Lent to the device being fed, one set per region set it monitors.
    private var monitorBuffers: [RegionMonitorBuffers] = []
    /// The events of the message being applied for one device, as lines; kept from message to message.
    private var lines = EventLines()

    /// The events the input message at `sequence` caused for `device`, in order: the lines `geowake replay`
    /// prints for them, each ending in a newline. Called once per device and message, never with none.
    typealias Emit = (_ device: String, _ sequence: UInt64, _ lines: EventLines) throws -> Void

    init(partition: Int, services: FleetServices, defaultSet: String = "default",
         checkpoint: PartitionCheckpoint, sources: PartitionSources) throws {
        self.partition = partition
        self.services = services
        self.defaultSet = defaultSet
        sequence = checkpoint.sequence
        regionSets = checkpoint.regionSets
        assignmentsRevision = checkpoint.assignmentsRevision
        counts = checkpoint.counts
        if assignmentsRevision > 0 { assignments = try sources.assignments(assignmentsRevision) }
        for device in checkpoint.devices {
            devices[device.id] = try DeviceServices(services: services, snapshot: device) { try regionIndex(of: $0, sources) }
        }
    }

    var checkpoint: PartitionCheckpoint {
        PartitionCheckpoint(sequence: sequence, regionSets: regionSets, assignmentsRevision: assignmentsRevision,
                            devices: devices.map { $0.value.snapshot(id: $0.key) }.sorted { $0.id < $1.id }, counts: counts)
    }

    /// `checkpoint`'s bytes, written from the devices' services without building their snapshots.
    func encodedCheckpoint() -> [UInt8] {
        var out = CheckpointWriter()
        PartitionCheckpoint.header(sequence: sequence, regionSets: regionSets, assignmentsRevision: assignmentsRevision,
                                   counts: counts, devices: devices.count, into: &out)
        for (id, services) in devices.sorted(by: { $0.key < $1.key }) { services.encode(id: id, into: &out) }
        return out.bytes
    }

    /// The region set `set` at the revision in force (revision 0 before any was announced).
    private mutating func regionIndex(of set: String, _ sources: PartitionSources) throws -> RegionIndex {
        if let index = indexes[set] { return index }
        let index = try sources.regions(set, regionSets[set, default: 0])
        indexes[set] = index
        return index
    }

    /// The region set `set` in force (for tests and the log).
    func regions(_ set: String) -> RegionIndex? { indexes[set] }

    private func setNames(for device: String) -> [String] {
        services.regions == nil ? [] : assignments.sets(for: device, fallback: [defaultSet])
    }

    /// Applies one input message. A message at or before the state's sequence was applied already (a
    /// redelivery) and is skipped.
    mutating func apply(sequence: UInt64, subject: UnsafeBufferPointer<UInt8>, payload: UnsafeRawBufferPointer,
                        sources: PartitionSources, emit: Emit) throws {
        guard sequence > self.sequence else { return }
        self.sequence = sequence
        counts.messages += 1
        switch InputSubject(bytes: subject) {
        case .fix(let device):
            lines.removeAll()
            var known = devices.removeValue(forKey: device)
            defer {
                if var known {
                    known.releaseBuffers()
                    devices[device] = known
                }
            }
            try DeviceBatch.read(payload) { reading in
                switch reading {
                case .fix(let fix): try feed(fix, to: &known, device: device, sources: sources)
                case .notAFix: counts.notAFix += 1
                case .malformed(let reason):
                    counts.malformed += 1
                    problems.append("device \(device), sequence \(sequence): malformed: \(reason)")
                }
            }
            try emitLines(device: device, emit: emit)
        case .regions:
            guard let (set, revision) = RegionsMarker.revision(payload), revision > regionSets[set, default: 0] else { return }
            regionSets[set] = revision
            guard indexes[set] != nil else { return }
            indexes[set] = nil
            try switchRegions(set, to: regionIndex(of: set, sources), emit: emit)
        case .assignments:
            guard let revision = AssignmentsMarker.revision(payload), revision > assignmentsRevision else { return }
            assignmentsRevision = revision
            assignments = try sources.assignments(revision)
            try reassign(sources: sources, emit: emit)
        case .unknown:
            counts.unknownSubject += 1
            problems.append("sequence \(sequence): unknown subject \(String(decoding: subject, as: UTF8.self))")
        }
    }

    /// For tests: subject and payload as values.
    mutating func apply(sequence: UInt64, subject: String, payload: [UInt8], sources: PartitionSources, emit: Emit) throws {
        let subject = Array(subject.utf8)
        try subject.withUnsafeBufferPointer { subject in
            try payload.withUnsafeBytes { try apply(sequence: sequence, subject: subject, payload: $0, sources: sources, emit: emit) }
        }
    }

    /// One fix of the message into the device's services (created at its first fix with a time).
    private mutating func feed(_ fix: Fix, to known: inout DeviceServices?, device: String, sources: PartitionSources) throws {
        guard let time = fix.time else {
            counts.withoutTime += 1
            return
        }
        if known == nil {
            let sets = try setNames(for: device).map { ($0, try regionIndex(of: $0, sources)) }
            known = DeviceServices(services: self.services, sets: sets)
        }
        if let last = known!.lastTime, time < last {
            counts.outOfOrder += 1
            problems.append("device \(device), sequence \(sequence): out of order (before the device's last fix)")
            return
        }
        counts.fixes += 1
        try known!.feed(fix, writer: &writer, buffers: &monitorBuffers) { lines.append($0) }
    }

    /// The device's lines of this message, if any, as one `emit`.
    private mutating func emitLines(device: String, emit: Emit) throws {
        guard lines.count > 0 else { return }
        counts.events += lines.count
        try emit(device, sequence, lines)
    }

    private mutating func switchRegions(_ set: String, to index: RegionIndex, emit: Emit) throws {
        for device in devices.keys.sorted() where devices[device]!.setNames.contains(set) {
            events.removeAll(keepingCapacity: true)
            let named = devices[device]!.regionSets.count > 1
            devices[device]!.switchRegions(of: set, to: index, events: &events)
            lines.removeAll()
            appendLines(events, set: named ? set : nil)
            try emitLines(device: device, emit: emit)
        }
    }

    /// Every known device onto the sets the new assignments give it.
    private mutating func reassign(sources: PartitionSources, emit: Emit) throws {
        for device in devices.keys.sorted() {
            var known = devices[device]!
            let named = known.regionSets.count > 1
            let sets = try setNames(for: device).map { ($0, try regionIndex(of: $0, sources)) }
            var ended: [(String, [RegionEvent])] = []
            known.assign(sets, services: services) { ended.append(($0, $1)) }
            devices[device] = known
            lines.removeAll()
            for (set, events) in ended { appendLines(events, set: named ? set : nil) }
            try emitLines(device: device, emit: emit)
        }
    }

    /// Region events not caused by a fix (a set changed or left), as the device's lines.
    private mutating func appendLines(_ batch: [RegionEvent], set: String?) {
        for event in batch {
            writer.removeAll()
            writer.regionEventLine(event)
            lines.append(DeviceServices.line(writer.bytes, set: set))
        }
    }
}

/// `{"set":"NAME","revision":N}`: the payload `geowake fleet regions put` writes into every partition.
enum RegionsMarker {
    static func payload(set: String, revision: UInt64) -> [UInt8] {
        var writer = JSONLineWriter(reservingCapacity: 64)
        writer.beginObject()
        writer.field("set", set)
        writer.field("revision", Int(revision))
        writer.endObject()
        return writer.bytes
    }

    static func revision(_ payload: UnsafeRawBufferPointer) -> (set: String, revision: UInt64)? {
        var name: String?
        var revision: UInt64?
        let ok = JSONScanner.members(of: payload.bindMemory(to: UInt8.self)) { key, value in
            switch value {
            case .string(let text) where key.equals("set"): name = String(decoding: text, as: UTF8.self)
            case .number(let x) where key.equals("revision"): revision = UInt64(exactly: x)
            default: break
            }
        }
        guard ok, let name, let revision else { return nil }
        return (name, revision)
    }
}

/// `{"assignments":N}`: the payload `geowake fleet assign` writes into every partition.
enum AssignmentsMarker {
    static func payload(revision: UInt64) -> [UInt8] {
        var writer = JSONLineWriter(reservingCapacity: 32)
        writer.beginObject()
        writer.field("assignments", Int(revision))
        writer.endObject()
        return writer.bytes
    }

    static func revision(_ payload: UnsafeRawBufferPointer) -> UInt64? {
        var revision: UInt64?
        let ok = JSONScanner.members(of: payload.bindMemory(to: UInt8.self)) { key, value in
            if case .number(let x) = value, key.equals("assignments") { revision = UInt64(exactly: x) }
        }
        return ok ? revision : nil
    }
}
