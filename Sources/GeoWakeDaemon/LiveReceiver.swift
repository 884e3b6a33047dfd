import Foundation
import GeoWakeCore
import GPSD
import Synchronization

/// gpsd or a serial receiver: `FixSource`'s live kind. Between `start()` and `stop()` (which the daemon calls as
/// demand comes and goes) the GPSD target's source hands each fix and state report, on its own thread, straight into
/// an `Inbox` of the daemon's inputs, and one byte on a pipe wakes the loop, which stays the only writer of state:
/// one hop from the receiver to the loop.
final class LiveReceiver: Sendable {
    enum Kind: Sendable, Equatable {
        case gpsd(GPSDSource.Configuration)
        case serial(SerialNMEASource.Configuration)
    }

    let description: String
    private let inbox: Inbox<FixSource.Input>
    private let watchFixes: @Sendable (@escaping @Sendable (Fix) -> Void) -> FixWatch
    private let running = Mutex<FixWatch?>(nil)

    init(_ kind: Kind) throws(ProtocolError) {
        let inbox = Inbox<FixSource.Input>()
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
            watch = watchFixes { inbox.push(.fix($0, replayed: nil)) }
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
    func take() -> [FixSource.Input] { inbox.take() }

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
