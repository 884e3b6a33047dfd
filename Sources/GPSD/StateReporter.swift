/// Passes a worker's state to the handler only when it differs from the last one passed,
/// so a source retrying every 30 s logs its outage once, not every 30 s.
final class StateReporter {
    private let handler: SourceStateHandler
    private var last: SourceState?

    init(_ handler: @escaping SourceStateHandler) {
        self.handler = handler
    }

    func report(_ state: SourceState) {
        guard state != last else { return }
        last = state
        handler(state)
    }
}
