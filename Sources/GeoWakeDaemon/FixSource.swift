import GeoWakeCore
import GPSD

/// Where the daemon's fixes come from, whatever the kind: a trace replayed on its own clock (`TraceReplay`), or gpsd
/// or a serial NMEA device (`LiveReceiver`), whose threads push what they read into an inbox that wakes the loop. The
/// loop drives every kind one way: `start` while some client needs fixes, `stop` when none does; it polls
/// `wakeDescriptor` and sleeps at most `delay`; then `take` hands over what is due, fixes and state reports, which the
/// loop gives the decisions as `DaemonInput`s.
struct FixSource {
    enum Input: Sendable {
        /// A fix; a trace's says where it is in the trace (see `Replayed`), a live one's nil.
        case fix(Fix, replayed: Replayed?)
        /// A live receiver's report of what it is doing (connecting, silent, unavailable…).
        case state(SourceState)
    }

    /// A trace fix's index, stored with its events so that a restart resumes after it, and whether it is the last.
    struct Replayed: Sendable, Equatable {
        let position: Int
        let isLast: Bool
    }

    /// `idle` while no client needs fixes, `running` while one does, `ended` once a trace was replayed to its end.
    enum State: String {
        case idle, running, ended
    }

    private enum Kind {
        case trace(TraceReplay)
        case live(LiveReceiver)
    }

    private var kind: Kind
    private(set) var state = State.idle

    /// `trace:FILE` is read whole here; call `resume(after:)` with the stored position before the first turn.
    init(trace path: String, speed: Double) throws {
        kind = .trace(try TraceReplay(path: path, speed: speed))
    }

    /// `gpsd://HOST:PORT[/DEVICE]` or an absolute device path.
    init(live argument: String, baudRate: Int) throws(ProtocolError) {
        guard let kind = try LiveReceiver.kind(argument, baudRate: baudRate) else {
            throw ProtocolError("internal", "--source must be gpsd://HOST:PORT, an absolute device path or trace:FILE, not \(argument)")
        }
        self.kind = .live(try LiveReceiver(kind))
    }

    var description: String {
        switch kind {
        case .trace(let replay): replay.description
        case .live(let receiver): receiver.description
        }
    }

    /// A trace's replay (its clock and next fix time, which region deadlines and a beacon trace follow); nil for a
    /// live receiver, whose time is the wall clock's.
    var replay: TraceReplay? {
        if case .trace(let replay) = kind { replay } else { nil }
    }

    var isLive: Bool { replay == nil }

    /// What the decisions know of the source (`DaemonCore.source`); the loop hands it over after every change.
    var facts: SourceFacts {
        SourceFacts(description: description, state: state, isLive: isLive, lastFixTime: replay?.fixes.last?.time)
    }

    /// Where a trace resumes: after the fix at `position` (-1: from its first).
    mutating func resume(after position: Int) {
        guard case .trace(var replay) = kind else { return }
        replay.position = position
        kind = .trace(replay)
        state = replay.ended ? .ended : .idle
    }

    /// Demand came: a trace's clock starts, a live receiver starts watching.
    mutating func start(now: Double) {
        guard state == .idle else { return }
        switch kind {
        case .trace(var replay):
            replay.start(now: now)
            kind = .trace(replay)
        case .live(let receiver):
            receiver.start()
        }
        state = .running
    }

    /// Demand went: a trace pauses, a live receiver lets go of gpsd or the tty.
    mutating func stop() {
        guard state == .running else { return }
        switch kind {
        case .trace(var replay):
            replay.pause()
            kind = .trace(replay)
        case .live(let receiver):
            receiver.stop()
        }
        state = .idle
    }

    /// The descriptor a live receiver's threads make readable when they deliver; nil for a trace.
    var wakeDescriptor: Int32? {
        if case .live(let receiver) = kind { receiver.wakeDescriptor } else { nil }
    }

    /// Seconds until a trace's next fix is due (0 when due now); nil for a live receiver (its descriptor wakes the
    /// loop) and for a trace paused or ended.
    func delay(now: Double) -> Double? {
        replay?.delay(now: now)
    }

    /// What is due at `now`: a running trace's next fix once its time came (one a turn, so requests and deliveries
    /// come between fixes however fast the replay), or everything a live receiver delivered since the last call, in
    /// order.
    mutating func take(now: Double) -> [Input] {
        switch kind {
        case .trace(var replay):
            guard let delay = replay.delay(now: now), delay <= 0 else { return [] }
            let fix = replay.next()
            kind = .trace(replay)
            if replay.ended { state = .ended }
            return [.fix(fix, replayed: Replayed(position: replay.position, isLast: replay.ended))]
        case .live(let receiver):
            return receiver.take()
        }
    }
}

/// The fix source as the decisions see it, without its receiver: what `status` shows, the key of a trace's stored
/// position, and whether the trace ended.
struct SourceFacts: Equatable {
    let description: String
    var state: FixSource.State
    let isLive: Bool
    /// A trace's last dated fix's time; nil for a live receiver.
    let lastFixTime: Timestamp?
}
