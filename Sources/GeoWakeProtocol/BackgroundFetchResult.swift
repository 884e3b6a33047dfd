/// What a background fetch found, as the client reports it with `completeBackgroundFetch`: it sets when the next
/// fetch comes (docs/protocol.md, "Background fetch").
public enum BackgroundFetchResult: String, Hashable, Sendable, Codable, CaseIterable {
    /// New data was fetched: the next fetch comes after the minimum interval again.
    case newData
    /// Nothing new: the interval doubles, up to 16 times the minimum.
    case noData
    /// The fetch failed (also when its budget ended, or its process did, before a result): the interval is multiplied
    /// by four, up to 16 times the minimum.
    case failed
}
