import RegionIndex

extension Array {
    /// In an array sorted by region handle, where `region`'s element is, or would go to keep the order: the first
    /// index whose handle is not below it. Tracks, the neighbourhood's candidates and the measured boundaries are
    /// each kept in handle order and looked up this way.
    func position(of region: RegionHandle, handle: (Element) -> RegionHandle) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if handle(self[middle]) < region { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
