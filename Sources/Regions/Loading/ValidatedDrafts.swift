import RegionIndex

extension RegionLoader {
    /// The regions of one GeoJSON document held in memory, read and validated as `load(bytes:name:)` reads and
    /// validates them (the same refusals, with the same messages), as drafts an index takes as they are. The daemon's
    /// `monitor` adds a request's regions this way: a store made for them, then read back into `Region` values and
    /// flattened into drafts again for the index, was a sixth of registering them. Validated on the calling thread:
    /// a request's thousand features are too few to pay for a second one. `positions`, when given, numbers the
    /// features in the caller's own count for the errors (a request's, whose beacon regions are not in the document).
    package static func validatedDrafts(bytes: UnsafeRawBufferPointer, name: String, options: RegionLoadOptions = RegionLoadOptions(),
                                        positions: [Int]? = nil) throws(RegionLoadError) -> [FeatureDraft] {
        let validator = RegionValidator()
        var drafts: [FeatureDraft] = []
        var numbers: [[UInt8]: Int] = [:]
        func position(_ number: Int) -> Int { positions.flatMap { number < $0.count ? $0[number] : nil } ?? number }
        do {
            try read(bytes, name: name, options: options, numbering: options.numberFeatures ? "" : nil, progress: { _ in }) { number, draft in
                try validator.validate(&draft)
                if let earlier = numbers.updateValue(number, forKey: draft.id) {
                    throw InvalidRegion(duplicateMessage(draft.id, earlier: UInt32(position(earlier)), firstSlots: [(name, 0)]))
                }
                var taken = FeatureDraft()
                swap(&taken, &draft)
                drafts.append(taken)
            }
        } catch {
            var error = error
            error.feature = error.feature.map(position)
            throw error
        }
        return drafts
    }
}
