import GeoWakeCore
import JSONLines

/// Publishes devices' fixes onto `geowake.fix.DEVICE`, one fix or a batch of one device's consecutive fixes per
/// message (fix lines), each message with a `Nats-Msg-Id` of device and positions, so that a window published
/// again after a failure is stored once. Windows are acknowledged before the next
/// one starts: a failure re-sends only the current window. A window holds at most one message per device, so
/// that a re-sent window cannot store a device's lost message after a later one of its own.
public final class FleetPublisher {
    private let connection: NATSConnection
    private var window: [(subject: String, id: String, payload: [UInt8], fixes: Int)] = []
    private var subjectsInWindow: Set<String> = []
    /// The connection's failure count when the window's first message was published: a failure counted
    /// after it belongs to this window, even one counted before `flush` is called.
    private var failuresBeforeWindow = 0
    private var writer = JSONLineWriter(reservingCapacity: 512)
    public let windowSize: Int
    /// How long a window may go unacknowledged before `flush` gives up.
    public let giveUpAfterMilliseconds: Int
    /// Fixes stored, and fixes sent again.
    public private(set) var published = 0
    public private(set) var resent = 0
    /// Told each time a window is sent again, and why.
    public var log: (String) -> Void = { _ in }

    public init(_ connection: NATSConnection, windowSize: Int = 4096, giveUpAfterMilliseconds: Int = 120_000) {
        self.connection = connection
        self.windowSize = windowSize
        self.giveUpAfterMilliseconds = giveUpAfterMilliseconds
    }

    /// `position` is the fix's place in the device's input (0, 1, …): the de-duplication id is `DEVICE:POSITION`.
    public func publish(_ fix: Fix, device: String, position: Int) throws {
        try publish(CollectionOfOne(fix), device: device, firstPosition: position)
    }

    /// Consecutive fixes of one device as one message, a fix line each, the first at `firstPosition` in the
    /// device's input: the id is `DEVICE:FIRST-LAST` (`DEVICE:POSITION` for one fix).
    public func publish(_ fixes: some Collection<Fix>, device: String, firstPosition: Int) throws {
        guard !fixes.isEmpty else { return }
        var payload: [UInt8] = []
        for fix in fixes {
            if !payload.isEmpty { payload.append(UInt8(ascii: "\n")) }
            writer.removeAll()
            DevicePayload.fixLine(fix, into: &writer)
            payload.append(contentsOf: writer.bytes)
        }
        let last = firstPosition + fixes.count - 1
        let id = fixes.count == 1 ? "\(device):\(firstPosition)" : "\(device):\(firstPosition)-\(last)"
        try publish(payload: payload, subject: FleetLayout.fixSubject(device: device), id: id, fixes: fixes.count)
    }

    /// A payload as it is; `fixes` counts toward `published`.
    public func publish(payload: [UInt8], subject: String, id: String, fixes: Int = 1) throws {
        // One message per subject in a window: a window re-sent after a loss stores the lost message after
        // the stored ones, which must not be a later message of the same device (its fixes would be out of
        // order: the node-kill test lost a device's events this way when a paced publisher ran behind).
        if subjectsInWindow.contains(subject) { try flush() }
        if window.isEmpty { failuresBeforeWindow = connection.failureCount }
        subjectsInWindow.insert(subject)
        window.append((subject, id, payload, fixes))
        try payload.withUnsafeBytes { try connection.publishAsync(subject, $0, messageID: id) }
        if window.count >= windowSize { try flush() }
    }

    /// Waits until everything published is stored, re-sending a window that was not, for up to two minutes
    /// (a cluster that lost a node elects new leaders meanwhile). A failure counts against the window from
    /// its first publish on: one the library reported before `flush` was called is a failure too (counting
    /// only from the call took such a window as stored, and its lost fixes were never sent again).
    /// The two minutes are on the clock: a stream without a leader refuses each publish at once, and counting
    /// each such round as a full wait gave up after 6 s, before the election ended (CI saw it after a node kill).
    public func flush() throws {
        let giveUpAt = ContinuousClock.now + .milliseconds(giveUpAfterMilliseconds)
        while true {
            guard let unacknowledged = connection.completePublishes(timeoutMilliseconds: 10_000,
                                                                    failuresBefore: failuresBeforeWindow) else {
                published += window.reduce(0) { $0 + $1.fixes }
                window.removeAll(keepingCapacity: true)
                subjectsInWindow.removeAll(keepingCapacity: true)
                return
            }
            guard ContinuousClock.now < giveUpAt else {
                throw FleetError("fixes were not acknowledged for \(giveUpAfterMilliseconds / 1000) s (last: \(unacknowledged))")
            }
            log("a window of \(window.count) messages was not stored (\(unacknowledged)); sending it again")
            usleepMilliseconds(500)
            resent += window.reduce(0) { $0 + $1.fixes }
            failuresBeforeWindow = connection.failureCount
            for message in window {
                try message.payload.withUnsafeBytes { try connection.publishAsync(message.subject, $0, messageID: message.id) }
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif

func usleepMilliseconds(_ milliseconds: Int) {
    usleep(UInt32(milliseconds * 1000))
}
