/// The map's colours. The track ramp runs from blue (slow, early) to red (fast, late), in steps, so that
/// one colour's run of the track is one polyline.
enum MapPalette {
    static let ramp = ["#2c7bb6", "#00a6ca", "#00ccbc", "#90eb9d", "#f9d057", "#f29e2e", "#e76818", "#d7191c"]
    static let enteredRegion = "#ff7f00"
    static let otherRegion = "#6a7f99"
    static let accuracy = "#9b59b6"
    static let enter = "#1a9641"
    static let exit = "#d7191c"
    static let dwell = "#7b3294"

    /// The ramp step of `fraction` in [0, 1].
    static func step(_ fraction: Double) -> Int {
        guard fraction.isFinite else { return 0 }
        return max(0, min(ramp.count - 1, Int(fraction * Double(ramp.count))))
    }
}
