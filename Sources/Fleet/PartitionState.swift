import GeoWakeCore
import Geofencing
import JSONLines
import JSONText
import RegionIndex

/// One partition's devices and what its input did, advanced one message at a time. Pure: the message comes
/// in, the events go out through `emit`, region sets come from `regionsAt`; nothing here touches NATS.
struct PartitionState {
    let partition: Int
    let configuration: RegionMonitorConfiguration
    /// The region set this worker monitors; markers of other sets are not its business.
    let regionSet: String
    private(set) var sequence: UInt64
    /// The latest revision announced in this partition's input, of every set.
    private(set) var regionSets: [String: UInt64]
    private(set) var regions: RegionIndex
    private(set) var devices: [String: DeviceMonitor] = [:]
    private(set) var counts: InputCounts
    /// One line per unusable message since the caller last took them.
    var problems: [String] = []
    private var events: [RegionEvent] = []
    private var writer = JSONLineWriter(reservingCapacity: 512)

    /// An event for `device`, caused by the input message at `sequence`, the `index`th it caused: the line
    /// `geowake replay` prints for it, without the newline.
    typealias Emit = (_ device: String, _ sequence: UInt64, _ index: Int, _ line: ArraySlice<UInt8>) throws -> Void

    init(partition: Int, regionSet: String, configuration: RegionMonitorConfiguration,
         checkpoint: PartitionCheckpoint, regions: RegionIndex) {
        self.partition = partition
        self.regionSet = regionSet
        self.configuration = configuration
        sequence = checkpoint.sequence
        regionSets = checkpoint.regionSets
        self.regions = regions
        counts = checkpoint.counts
        for device in checkpoint.devices {
            devices[device.id] = DeviceMonitor(regions: regions, configuration: configuration, snapshot: device.monitor)
        }
    }

    var checkpoint: PartitionCheckpoint {
        let list = devices.map { PartitionCheckpoint.Device(id: $0.key, monitor: $0.value.snapshot) }
        return PartitionCheckpoint(sequence: sequence, regionSets: regionSets,
                                   devices: list.sorted { $0.id < $1.id }, counts: counts)
    }

    /// Applies one input message. A message at or before the state's sequence was applied already (a
    /// redelivery) and is skipped.
    mutating func apply(sequence: UInt64, subject: String, payload: [UInt8],
                        regionsAt: (UInt64) throws -> RegionIndex, emit: Emit) throws {
        guard sequence > self.sequence else { return }
        self.sequence = sequence
        counts.messages += 1
        switch InputSubject(subject) {
        case .fix(let device):
            let reading = payload.withUnsafeBytes { DevicePayload.read($0) }
            switch reading {
            case .fix(let fix): try feed(fix, device: device, emit: emit)
            case .notAFix: counts.notAFix += 1
            case .malformed(let reason):
                counts.malformed += 1
                problems.append("device \(device), sequence \(sequence): malformed: \(reason)")
            }
        case .regions:
            guard let (set, revision) = RegionsMarker.revision(payload), revision > regionSets[set, default: 0] else { return }
            regionSets[set] = revision
            if set == regionSet { try switchRegions(to: regionsAt(revision), emit: emit) }
        case .unknown:
            counts.unknownSubject += 1
            problems.append("sequence \(sequence): unknown subject \(subject)")
        }
    }

    private mutating func feed(_ fix: Fix, device: String, emit: Emit) throws {
        guard let time = fix.time else {
            counts.withoutTime += 1
            return
        }
        var monitor = devices.removeValue(forKey: device) ?? DeviceMonitor(regions: regions, configuration: configuration)
        defer { devices[device] = monitor }
        if let last = monitor.lastTime, time < last {
            counts.outOfOrder += 1
            problems.append("device \(device), sequence \(sequence): out of order (before the device's last fix)")
            return
        }
        counts.fixes += 1
        try monitor.replay.feed(fix) { batch in try emitAll(batch, device: device, emit: emit) }
    }

    /// The revision of the monitored set in force (0: none announced yet).
    var regionsRevision: UInt64 { regionSets[regionSet, default: 0] }

    private mutating func switchRegions(to index: RegionIndex, emit: Emit) throws {
        regions = index
        for device in devices.keys.sorted() {
            events.removeAll(keepingCapacity: true)
            devices[device]!.switchRegions(to: index, events: &events)
            if !events.isEmpty { try emitAll(events, device: device, emit: emit) }
        }
    }

    private mutating func emitAll(_ batch: [RegionEvent], device: String, emit: Emit) throws {
        for (index, event) in batch.enumerated() {
            writer.removeAll()
            writer.regionEventLine(event)
            try emit(device, sequence, index, writer.bytes.dropLast())
            counts.events += 1
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

    static func revision(_ payload: [UInt8]) -> (set: String, revision: UInt64)? {
        var name: String?
        var revision: UInt64?
        let ok = payload.withUnsafeBufferPointer { line in
            JSONScanner.members(of: line) { key, value in
                switch value {
                case .string(let text) where key.equals("set"): name = String(decoding: text, as: UTF8.self)
                case .number(let x) where key.equals("revision"): revision = UInt64(exactly: x)
                default: break
                }
            }
        }
        guard ok, let name, let revision else { return nil }
        return (name, revision)
    }
}
