import RegionIndex

/// A group's region entries by the slot of each region's handle in the group's index: an index hands out slots in
/// order and never reuses one, so an array is the table (a dictionary of a million entries took a tenth of a
/// restart to fill).
struct RegionEntries {
    typealias Entry = SharedRegions.Entry

    private var bySlot: [Entry?] = []
    private(set) var count = 0

    init() {}

    /// The entries of regions in slots 0, 1, 2, … in turn.
    init(inSlotOrder entries: [Entry]) {
        bySlot = entries.map(Optional.some)
        count = entries.count
    }

    var isEmpty: Bool { count == 0 }

    subscript(handle: RegionHandle) -> Entry? {
        get {
            let slot = Int(handle.slot.rawValue)
            return slot < bySlot.count ? bySlot[slot] : nil
        }
        set {
            let slot = Int(handle.slot.rawValue)
            if slot >= bySlot.count {
                guard newValue != nil else { return }
                // One by one: `append(contentsOf: repeatElement(nil, …))` went through the generic witnesses of
                // `Entry?`, a tenth of a restart's last, single-threaded step.
                while bySlot.count <= slot { bySlot.append(nil) }
            }
            count += (newValue == nil ? 0 : 1) - (bySlot[slot] == nil ? 0 : 1)
            bySlot[slot] = newValue
        }
    }

    mutating func removeValue(forKey handle: RegionHandle) -> Entry? {
        let entry = self[handle]
        self[handle] = nil
        return entry
    }

    mutating func reserveCapacity(_ capacity: Int) { bySlot.reserveCapacity(capacity) }
}
