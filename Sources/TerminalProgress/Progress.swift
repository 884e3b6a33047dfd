#if canImport(Glibc)
import Glibc
#endif

/// A progress bar on standard error for work that can take more than a second: done/total, rate and time
/// left, redrawn at most ten times a second and only when standard error is a terminal. Work reports through
/// `update`, which costs a comparison until a redraw is due; the bar is erased by `finish`, so the summary
/// lines that follow are exactly what they would be without it.
public struct Progress {
    public enum Unit: Sendable, Equatable {
        /// Counted in bytes, shown in megabytes.
        case bytes
        /// Counted and shown as they are, e.g. "fixes".
        case items(String)
    }

    public let label: String
    public let unit: Unit
    public private(set) var total: Int?
    public let isEnabled: Bool
    private let descriptor: Int32
    private let clock: () -> Double
    private let start: Double
    private var nextDraw: Double
    private var drawn = false
    static let interval = 0.1

    /// Enabled when `descriptor` is a terminal and `quiet` is false.
    public init(label: String, unit: Unit, total: Int?, quiet: Bool = false, descriptor: Int32 = STDERR_FILENO,
                clock: @escaping () -> Double = Progress.monotonicSeconds) {
        self.label = label
        self.unit = unit
        self.total = total
        self.descriptor = descriptor
        self.isEnabled = !quiet && isatty(descriptor) == 1
        self.clock = clock
        start = clock()
        // The first draw waits a little: work that is over at once shows no bar at all.
        nextDraw = start + 2 * Self.interval
    }

    public mutating func update(_ done: Int) {
        update(done, total: total)
    }

    /// As `update(_:)`, for work whose total is learnt as it goes (a file's size once it is open).
    public mutating func update(_ done: Int, total: Int?) {
        guard isEnabled else { return }
        self.total = total
        let now = clock()
        guard now >= nextDraw else { return }
        nextDraw = now + Self.interval
        write(Self.line(label: label, unit: unit, done: done, total: total, elapsed: now - start))
        drawn = true
    }

    /// Erases the bar, if one was drawn.
    public mutating func finish() {
        guard drawn else { return }
        write("\r\u{1B}[K")
        drawn = false
    }

    /// The bar's text: `label [#####-----] 12.3/45.6 MB  1.2 MB/s  27 s left`.
    public static func line(label: String, unit: Unit, done: Int, total: Int?, elapsed: Double) -> String {
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let name = switch unit {
        case .bytes: "MB"
        case .items(let name): name
        }
        var text = "\r\u{1B}[K\(label) "
        if let total, total > 0 {
            let fraction = min(1, max(0, Double(done) / Double(total)))
            let filled = Int(fraction * 24)
            text += "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 24 - filled) + "] "
            text += "\(count(done, unit))/\(count(total, unit)) \(name)"
            text += "  \(count(Int(rate), unit)) \(name)/s"
            if rate > 0 { text += "  \(Int((Double(total - done) / rate).rounded(.up))) s left" }
        } else {
            text += "\(count(done, unit)) \(name)  \(count(Int(rate), unit)) \(name)/s"
        }
        return text
    }

    /// Bytes shown in megabytes with one decimal, other counts as they are.
    private static func count(_ n: Int, _ unit: Unit) -> String {
        guard unit == .bytes else { return String(n) }
        let tenths = (n * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10)"
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = Glibc.write(descriptor, &bytes, bytes.count)
    }

    public static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
