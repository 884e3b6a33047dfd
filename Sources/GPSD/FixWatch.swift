import Synchronization

/// A running watch of a live source (`GPSDSource.watch`, `SerialNMEASource.watch`): its fixes go to the handler on
/// the source's own thread, with no stream or task between, until `stop()` or until the watch is released.
public final class FixWatch: Sendable {
    private let leave: Mutex<(@Sendable () -> Void)?>

    init(leave: @escaping @Sendable () -> Void) {
        self.leave = Mutex(leave)
    }

    /// Ends the watch; the source lets go of the receiver once no one else watches it.
    public func stop() {
        leave.withLock { leave in
            leave?()
            leave = nil
        }
    }

    deinit { stop() }
}
