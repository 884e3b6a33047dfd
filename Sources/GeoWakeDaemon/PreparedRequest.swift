import JSONText
import RegionIndex
import Regions

/// A request line read before its turn, as the decisions would read it: a `monitor` of a thousand regions is mostly
/// JSON and GeoJSON to read (its line, then every feature into a draft), which needs nothing of the daemon's state.
/// The loop has large lines read so on a worker (`LinePreparation`) while it serves the other connections, and hands
/// the result in with the line (`DaemonInput.request`); a small line is read by the decisions themselves.
struct PreparedRequest: @unchecked Sendable {
    let read: Result<RequestLine, JSONSyntaxError>
    /// For a `monitor` with inline features: each feature's text, as `RequestLine.featureTexts` cuts them.
    let featureTexts: [String]?
    /// For the same: every feature loaded into a draft as `RequestDrafts.load` loads the geographic ones, by position.
    /// The decision uses them only when each feature gave one; otherwise it loads its geographic features itself, so
    /// an error it reports is the one it would have met reading them (`DaemonCore.geographicDrafts`).
    let drafts: [FeatureDraft]?

    init(_ line: ArraySlice<UInt8>) {
        read = RequestLine.read(line)
        guard case .success(let request) = read, case .string(Operation.monitor.rawValue)? = request.fields["op"],
              let texts = request.featureTexts(line) else {
            (featureTexts, drafts) = (nil, nil)
            return
        }
        featureTexts = texts
        let loaded = try? RequestDrafts.load(texts, positions: texts.indices.map { $0 + 1 })
        drafts = loaded?.count == texts.count ? loaded : nil
    }
}
