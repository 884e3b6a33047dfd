/// Why the daemon started or woke a client, passed to it as `GEOWAKE_LAUNCH_REASON`.
public enum LaunchReason: String, Sendable, CaseIterable, Codable {
    case location
    case significantChange = "significant-change"
    case region
    case visit
    case beacon
}
