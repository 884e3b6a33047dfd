import RegionIndex

extension RegionLoader {
    /// The regions of one GeoJSON document held in memory, read and validated as `load(bytes:name:)` reads and
    /// validates them (the same refusals, with the same messages), as drafts an index takes as they are. The daemon's
    /// `monitor` adds a request's regions this way: a store made for them, then read back into `Region` values and
    /// flattened into drafts again for the index, was a sixth of registering them. Validated on the calling thread:
    /// a request's thousand features are too few to pay for a second one.
    package static func validatedDrafts(bytes: UnsafeRawBufferPointer, name: String,
                                        options: RegionLoadOptions = RegionLoadOptions()) throws(RegionLoadError) -> [FeatureDraft] {
        let validator = RegionValidator()
        var drafts: [FeatureDraft] = []
        var numbers: [[UInt8]: Int] = [:]
        try read(bytes, name: name, options: options, numbering: options.numberFeatures ? "" : nil, progress: { _ in }) { number, draft in
            try validator.validate(&draft)
            if let earlier = numbers.updateValue(number, forKey: draft.id) {
                throw InvalidRegion(duplicateMessage(draft.id, earlier: UInt32(earlier), firstSlots: [(name, 0)]))
            }
            var taken = FeatureDraft()
            swap(&taken, &draft)
            drafts.append(taken)
        }
        return drafts
    }
}
