
/// How a load finds ids in files written without them (GDAL and geopandas write no `id` member).
public struct RegionLoadOptions: Sendable {
    /// A property whose value (a string or a number) is the feature's id, ahead of any `id` member.
    public var idProperty: String?
    /// Features still without an id get their 0-based index in the file, prefixed `FILE#` in a
    /// directory (FILE the file's name) so that ids stay unique across its files.
    public var numberFeatures: Bool

    public init(idProperty: String? = nil, numberFeatures: Bool = false) {
        self.idProperty = idProperty
        self.numberFeatures = numberFeatures
    }
}
