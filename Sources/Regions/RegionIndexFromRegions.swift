import GeoWakeCore
import RegionIndex

/// Region values into an index, each validated first: the index itself takes only validated drafts.
extension RegionIndex {
    /// Builds from region values; throws for the first invalid one.
    public init(regions: [Region]) throws(InvalidRegion) {
        var store = RegionStore()
        let validator = RegionValidator()
        for region in regions {
            var draft = FeatureDraft(region)
            try validator.validate(&draft)
            _ = try store.append(draft)
        }
        store.appendMissingBands()
        self.init(store)
    }

    /// Adds regions a `RegionLoader` validated already (taken from its store), without validating them again, in
    /// one step (see `add(validated:)`).
    package mutating func add(validated regions: [Region]) throws(InvalidRegion) -> [RegionHandle] {
        try add(validated: regions.map(FeatureDraft.init))
    }

    /// Validates and adds a region; its handle stays valid until it is removed.
    @discardableResult
    public mutating func add(_ region: Region) throws(InvalidRegion) -> RegionHandle {
        var draft = FeatureDraft(region)
        try RegionValidator().validate(&draft)
        return try add(validated: draft)
    }
}
