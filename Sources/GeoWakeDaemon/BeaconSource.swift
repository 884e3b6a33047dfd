import Beacons
import Foundation
import GeoWakeCore
import Synchronization
import Traces

/// Where the daemon's beacon sightings come from: a beacon trace replayed at `--speed` (JSON lines or btsnoop),
/// a live adapter through a raw HCI socket (`hciN`), or beacon JSON lines from an external scanner as they arrive
/// (`lines:PATH`, a FIFO or `-` for standard input). Live sources run on their own thread and hand over through an
/// `Inbox` that wakes the loop; a trace is read whole at start and replayed by the loop itself.
final class BeaconSource {
    enum Kind: Equatable {
        case trace(String)
        case adapter(String)
        case lines(String)
    }

    enum Item: Sendable {
        case sightings([BeaconSighting])
        case running
        case unavailable(String)
        case ended(String)
    }

    let kind: Kind
    let description: String
    /// A trace's sightings in time order, and the index of the last one processed (stored with its events).
    private(set) var trace: [BeaconSighting] = []
    var position = -1
    let speed: Double
    /// The daemon's wall clock, which stamps a live scanner's sightings as they are read.
    private let wall: @Sendable () -> Timestamp
    private var origin: (time: Timestamp, clock: Double)?
    private let inbox = Inbox<Item>()
    private let wanted = Flag()
    /// Whether the live source's thread was started; it runs for the daemon's lifetime.
    private var threadStarted = false

    /// `trace:FILE`, `hciN` or `lines:PATH`; throws one line naming the argument for anything else or an unreadable trace.
    init(_ argument: String, speed: Double, wall: @escaping @Sendable () -> Timestamp = DaemonClock.system.wall) throws(ProtocolError) {
        self.speed = speed
        self.wall = wall
        description = argument
        if argument.hasPrefix("trace:") {
            kind = .trace(String(argument.dropFirst(6)))
            trace = try Self.read(String(argument.dropFirst(6)))
        } else if argument.hasPrefix("lines:"), argument.count > 6 {
            kind = .lines(String(argument.dropFirst(6)))
        } else if argument.hasPrefix("hci"), UInt16(argument.dropFirst(3)) != nil {
            kind = .adapter(argument)
        } else {
            throw ProtocolError("internal", "--beacon-source must be trace:FILE, lines:PATH (a FIFO, or - for standard input) or an adapter such as hci0, not \(argument)")
        }
    }

    var isTrace: Bool { if case .trace = kind { true } else { false } }

    /// The descriptor the loop polls (woken by a live source's thread).
    var wakeDescriptor: Int32 { inbox.readEnd }

    func take() -> [Item] { inbox.take() }

    var traceEnded: Bool { isTrace && position + 1 >= trace.count }

    /// Starts the trace's own clock or the live thread.
    func start(now: Double) {
        wanted.value = true
        switch kind {
        case .trace:
            guard origin == nil, !traceEnded else { return }
            origin = (trace[position + 1].time, now)
        case .adapter(let adapter):
            guard !threadStarted else { return }
            threadStarted = true
            startWorkerThread { [inbox, wanted] in Self.scan(adapter, inbox, wanted) }
        case .lines(let path):
            guard !threadStarted else { return }
            threadStarted = true
            startWorkerThread { [inbox, wall] in Self.readLines(path, inbox, wall) }
        }
    }

    /// Pauses a trace and ends an adapter's scan; a lines source keeps being read (the loop drops what it gets),
    /// so the scanner writing to it never blocks.
    func stop() {
        wanted.value = false
        origin = nil
    }

    /// Seconds until the trace's next sighting is due, nil for a live source or a paused or ended trace. While a
    /// fix trace runs, its clock (`fixOrigin`) is the one both replay on.
    func delay(now: Double, fixOrigin: (time: Timestamp, clock: Double)?) -> Double? {
        guard let ownOrigin = origin, !traceEnded else { return nil }
        guard speed > 0 else { return 0 }
        let origin = fixOrigin ?? ownOrigin
        return max(0, origin.clock + (trace[position + 1].time - origin.time) / speed - now)
    }

    func next() -> BeaconSighting {
        position += 1
        return trace[position]
    }

    /// The beacons an advertising report carries, as sightings at `time`.
    static func sightings(in report: AdvertisingReport, at time: Timestamp) -> [BeaconSighting] {
        AdvertisingData.beacons(in: report.data).beacons.map {
            BeaconSighting(time: time, address: report.address, rssi: report.rssi, beacon: $0)
        }
    }

    /// A whole trace; reports going back in time are skipped, as `geowake replay --beacons` skips them.
    private static func read(_ path: String) throws(ProtocolError) -> [BeaconSighting] {
        var sightings: [BeaconSighting] = []
        do {
            _ = try BeaconTraceFile.read(path) { report in
                if let last = sightings.last, report.time < last.time { return }
                sightings += Self.sightings(in: report, at: report.time)
            }
        } catch {
            throw ProtocolError("internal", "--beacon-source: \(error)")
        }
        if sightings.isEmpty {
            throw ProtocolError("internal", "--beacon-source: \(path): nothing recognised: no iBeacon or AltBeacon sighting")
        }
        return sightings
    }

    /// Beacon JSON lines as they arrive, stamped with the time the daemon reads them (a scanner's clock may differ
    /// from the daemon's, whose timers decide exits). A FIFO is opened again after its writer closes it.
    private static func readLines(_ path: String, _ inbox: Inbox<Item>, _ wall: @Sendable () -> Timestamp) {
        var announced = false
        while true {
            var isFIFO = false
            if path != "-" {
                var info = stat()
                isFIFO = stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO
            }
            do {
                if !announced { inbox.push(.running); announced = true }
                _ = try BeaconTraceFile.read(path) { report in
                    inbox.push(.sightings(Self.sightings(in: report, at: wall())))
                }
                guard isFIFO else {
                    inbox.push(.ended("\(path == "-" ? "standard input" : path) ended"))
                    return
                }
            } catch {
                inbox.push(.unavailable("\(error)"))
                announced = false
                sleep(1)
            }
        }
    }

    /// Scans while `wanted`; an adapter that cannot be opened is reported once and tried again every 5 s.
    private static func scan(_ adapter: String, _ inbox: Inbox<Item>, _ wanted: Flag) {
        while true {
            while !wanted.value { usleep(200_000) }
            do throws(HCIScanner.Failure) {
                let scanner = try HCIScanner(adapter: adapter)
                inbox.push(.running)
                while wanted.value {
                    try scanner.next { report in
                        inbox.push(.sightings(Self.sightings(in: report, at: report.time)))
                    }
                }
            } catch {
                inbox.push(.unavailable(error.description))
                sleep(5)
            }
        }
    }
}

/// A boolean the loop sets and a source thread reads.
final class Flag: Sendable {
    private let stored = Mutex(false)

    var value: Bool {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
