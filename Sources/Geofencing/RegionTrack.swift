import GeoWakeCore
import RegionIndex

/// What the monitor remembers about one active region.
///
/// Its instants are stored as bare milliseconds with a presence bit each, not as three `Timestamp?`: 40
/// bytes a track instead of 64. A device near 200 regions holds two arrays of them, and the merge copies
/// every track on most fixes.
struct RegionTrack {
    let handle: RegionHandle
    private var insideMilliseconds: Int64 = 0
    private var changeMilliseconds: Int64 = 0
    private var dwellMilliseconds: Int64 = 0
    private var present: Present = []

    private struct Present: OptionSet {
        let rawValue: UInt8
        static let inside = Present(rawValue: 1)
        static let change = Present(rawValue: 2)
        static let dwell = Present(rawValue: 4)

        mutating func set(_ bit: Present, _ isPresent: Bool) {
            if isPresent { insert(bit) } else { remove(bit) }
        }
    }

    init(handle: RegionHandle, insideSince: Timestamp? = nil, changeDue: Timestamp? = nil, dwellDue: Timestamp? = nil) {
        self.handle = handle
        self.insideSince = insideSince
        self.changeDue = changeDue
        self.dwellDue = dwellDue
    }

    /// The reported state.
    var isInside: Bool { present.contains(.inside) }

    /// When the region was reported inside; nil while outside.
    var insideSince: Timestamp? {
        get { present.contains(.inside) ? Timestamp(millisecondsSince1970: insideMilliseconds) : nil }
        set {
            insideMilliseconds = newValue?.millisecondsSince1970 ?? 0
            present.set(.inside, newValue != nil)
        }
    }

    /// A change to the opposite state, reported at this instant unless a decisive fix contradicts it first.
    var changeDue: Timestamp? {
        get { present.contains(.change) ? Timestamp(millisecondsSince1970: changeMilliseconds) : nil }
        set {
            changeMilliseconds = newValue?.millisecondsSince1970 ?? 0
            present.set(.change, newValue != nil)
        }
    }

    var dwellDue: Timestamp? {
        get { present.contains(.dwell) ? Timestamp(millisecondsSince1970: dwellMilliseconds) : nil }
        set {
            dwellMilliseconds = newValue?.millisecondsSince1970 ?? 0
            present.set(.dwell, newValue != nil)
        }
    }

    /// Outside with nothing pending is what an unknown region looks like: such tracks are dropped.
    var isActive: Bool { !present.isDisjoint(with: [.inside, .change]) }

    /// Reported inside with no change or dwell pending: a fix inside the region leaves it as it is.
    var isSettledInside: Bool { present == .inside }

    var nextDue: Timestamp? {
        guard let change = changeDue else { return dwellDue }
        guard let dwell = dwellDue else { return change }
        return min(change, dwell)
    }
}
