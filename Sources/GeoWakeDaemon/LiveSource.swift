import Foundation
import GeoWakeCore
import GPSD
import Synchronization

/// gpsd or a serial receiver, bridged into the daemon's poll loop. The source delivers fixes and state changes on its
/// own thread straight into a queue, and one byte on a pipe wakes the loop, so the loop stays the only writer of state:
/// one hop from the receiver to the loop.
/// The source watches the receiver only between `start()` and `stop()`, which the daemon calls as demand comes and goes.
final class LiveSource: Sendable {
    enum Kind: Sendable, Equatable {
        case gpsd(GPSDSource.Configuration)
        case serial(SerialNMEASource.Configuration)
    }

    enum Item: Sendable {
        case fix(Fix)
        case state(SourceState)
    }

    let description: String
    private let inbox: Inbox<Item>
    private let watchFixes: @Sendable (@escaping @Sendable (Fix) -> Void) -> FixWatch
    private let running = Mutex<FixWatch?>(nil)

    init(_ kind: Kind) throws(ProtocolError) {
        let inbox = Inbox<Item>()
        self.inbox = inbox
        let report: SourceStateHandler = { inbox.push(.state($0)) }
        switch kind {
        case .gpsd(let configuration):
            description = "gpsd://\(configuration.host):\(configuration.port)" + (configuration.device ?? "")
            let source = GPSDSource(configuration, onStateChange: report)
            watchFixes = { source.watch($0) }
        case .serial(let configuration):
            description = "serial:\(configuration.path)@\(configuration.baudRate)"
            do {
                let source = try SerialNMEASource(configuration, onStateChange: report)
                watchFixes = { source.watch($0) }
            } catch {
                throw ProtocolError("internal", error.description)
            }
        }
    }

    /// The descriptor the loop polls for readability; `take()` empties it.
    var wakeDescriptor: Int32 { inbox.readEnd }

    func start() {
        running.withLock { watch in
            guard watch == nil else { return }
            let inbox = self.inbox
            watch = watchFixes { inbox.push(.fix($0)) }
        }
    }

    /// Ends the watch: the source lets go of gpsd or the tty and reports `idle`.
    func stop() {
        running.withLock { watch in
            watch?.stop()
            watch = nil
        }
    }

    /// What arrived since the last call, in arrival order.
    func take() -> [Item] { inbox.take() }

    /// `gpsd://HOST:PORT[/DEVICE]` or an absolute device path; nil for anything else.
    static func kind(_ argument: String, baudRate: Int) throws(ProtocolError) -> Kind? {
        if argument.hasPrefix("gpsd://") {
            do {
                return .gpsd(try GPSDSource.Configuration(url: argument))
            } catch {
                throw ProtocolError("internal", "--source: \(error.description)")
            }
        }
        guard argument.hasPrefix("/") else { return nil }
        return .serial(SerialNMEASource.Configuration(path: argument, baudRate: baudRate))
    }
}

/// The queue between a source's threads and the loop, with its wake-up pipe.
final class Inbox<Item: Sendable>: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32
    private let items = Mutex<[Item]>([])

    init() {
        var ends: [Int32] = [-1, -1]
        pipe(&ends)
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        Glibc.close(readEnd)
        Glibc.close(writeEnd)
    }

    func push(_ item: Item) {
        let wasEmpty = items.withLock { items in
            items.append(item)
            return items.count == 1
        }
        var byte: UInt8 = 1
        if wasEmpty { _ = write(writeEnd, &byte, 1) }
    }

    func take() -> [Item] {
        var drain = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &drain, drain.count) > 0 {}
        return items.withLock { items in
            defer { items.removeAll() }
            return items
        }
    }
}
