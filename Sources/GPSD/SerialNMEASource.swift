import GeoWakeCore

/// Live fixes from an NMEA 0183 receiver on a serial port (or any tty), read with the trace reader's
/// `NMEAReader`, so a live device and a recorded log of it give the same fixes.
///
/// Like `GPSDSource`, it holds the tty open only while some consumer iterates `fixes()`. When the
/// device disappears (USB unplugged: EIO, hangup, or the path gone) it closes it and retries the path
/// with backoff until the device is back.
public final class SerialNMEASource: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var path: String
        public var baudRate: Int
        public var backoff: Backoff
        /// Receivers send an epoch's sentences in one burst; a gap this long after data ends the epoch,
        /// so its fix goes out now rather than when the next epoch starts a second later.
        public var epochGap: Duration
        /// With no byte for this long the source says `.silent`; with bytes but no position, `.noFix`.
        public var silenceTimeout: Duration

        public init(path: String, baudRate: Int = 4800, backoff: Backoff = Backoff(),
                    epochGap: Duration = .milliseconds(100), silenceTimeout: Duration = .seconds(5)) {
            self.path = path
            self.baudRate = baudRate
            self.backoff = backoff
            self.epochGap = epochGap
            self.silenceTimeout = silenceTimeout
        }
    }

    public let configuration: Configuration
    private let demand: FixDemand

    /// Throws when the baud rate has no termios constant; a missing device is not an error (it may appear).
    public init(_ configuration: Configuration, onStateChange: @escaping SourceStateHandler = { _ in }) throws(SerialError) {
        guard SerialPort.speed(configuration.baudRate) != nil else {
            throw SerialError("unsupported baud rate \(configuration.baudRate); expected one of "
                              + SerialPort.baudRates.map { String($0.rate) }.joined(separator: ", "))
        }
        self.configuration = configuration
        demand = FixDemand { demand, previous in
            let session = SerialSession(configuration: configuration, publish: demand.publish)
            return ReconnectingWorker.start(after: previous, backoff: configuration.backoff,
                                            onStateChange: onStateChange, session: session.run)
        }
    }

    /// A sequence of live fixes; see `FixStream` for how consumers open and close the device.
    public func fixes(bufferingNewest limit: Int = 256) -> FixStream {
        FixStream(demand: demand, bufferingNewest: limit)
    }

    /// Hands each fix to `deliver` on the source's thread until the returned watch stops: the daemon's way, one
    /// hop from the receiver into its loop's inbox.
    public func watch(_ deliver: @escaping @Sendable (Fix) -> Void) -> FixWatch {
        demand.watch(deliver)
    }

    /// How many consumers (iterations of `fixes()` and watches) are running now.
    public var consumerCount: Int { demand.consumerCount }
}
