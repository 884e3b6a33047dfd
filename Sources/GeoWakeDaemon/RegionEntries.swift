import RegionIndex

/// A group's region entries by the slot of each region's handle in the group's index: an index hands out slots in
/// order and never reuses one, so an array is the table (a dictionary of a million entries took a tenth of a
/// restart to fill).
struct RegionEntries {
    typealias Entry = SharedRegions.Entry

    private var bySlot: [Entry?] = []
    private(set) var count = 0

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
                bySlot.append(contentsOf: repeatElement(nil, count: slot + 1 - bySlot.count))
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
