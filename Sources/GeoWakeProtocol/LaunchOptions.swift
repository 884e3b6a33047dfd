/// How the daemon launches and keeps a client's process: the `register` request's `options`, as the library sends
/// them and the daemon's launcher keeps them (in its store, under the names the record was first written with).
public struct LaunchOptions: Hashable, Sendable, Codable {
    /// Relaunched on its next event even after being killed by someone other than the daemon (default true). Phone
    /// systems differ and have changed this between versions, so geowake makes it an explicit setting.
    public var relaunchAfterForceQuit: Bool
    /// The `location` background mode: not suspended while its continuous location updates run.
    public var locationInBackground: Bool
    /// The `bluetooth-central` background mode: not suspended while it ranges beacons.
    public var bluetoothInBackground: Bool
    /// Opts out of background execution (as `UIApplicationExitsOnSuspend`): the process is terminated when its
    /// background time ends instead of suspended, and launched again for its next event.
    public var exitsOnSuspend: Bool

    /// The defaults: relaunched after a force-quit, suspended after its budget like any launched process.
    public init(relaunchAfterForceQuit: Bool = true, locationInBackground: Bool = false, bluetoothInBackground: Bool = false,
                exitsOnSuspend: Bool = false) {
        self.relaunchAfterForceQuit = relaunchAfterForceQuit
        self.locationInBackground = locationInBackground
        self.bluetoothInBackground = bluetoothInBackground
        self.exitsOnSuspend = exitsOnSuspend
    }

    /// Whether a background mode can keep the client running.
    public var hasBackgroundMode: Bool { locationInBackground || bluetoothInBackground }

    /// The `options` object: `relaunchAfterForceQuit`, `exitsOnSuspend` and `backgroundModes`.
    public var fields: [String: JSONValue] {
        let modes = (locationInBackground ? ["location"] : []) + (bluetoothInBackground ? ["bluetooth-central"] : [])
        return ["relaunchAfterForceQuit": .bool(relaunchAfterForceQuit), "exitsOnSuspend": .bool(exitsOnSuspend),
                "backgroundModes": .array(modes.map(JSONValue.string))]
    }

    /// Reads an `options` object; a missing member keeps its default, unknown members are ignored.
    public init(fields: [String: JSONValue]?) throws(RequestError) {
        self.init()
        guard let fields else { return }
        if let value = fields["relaunchAfterForceQuit"] {
            guard case .bool(let flag) = value else { throw .badRequest("\"options.relaunchAfterForceQuit\" must be true or false") }
            relaunchAfterForceQuit = flag
        }
        if let value = fields["backgroundModes"] {
            guard let modes = value.array?.compactMap(\.string), modes.count == value.array?.count,
                  modes.allSatisfy(["location", "bluetooth-central"].contains) else {
                throw .badRequest("\"options.backgroundModes\" must be an array of known modes (\"location\", \"bluetooth-central\")")
            }
            locationInBackground = modes.contains("location")
            bluetoothInBackground = modes.contains("bluetooth-central")
        }
        if let value = fields["exitsOnSuspend"] {
            guard case .bool(let flag) = value else { throw .badRequest("\"options.exitsOnSuspend\" must be true or false") }
            exitsOnSuspend = flag
        }
    }

    /// The launcher's stored records name the background modes as they were first written.
    private enum CodingKeys: String, CodingKey {
        case relaunchAfterForceQuit, exitsOnSuspend
        case locationInBackground = "locationBackgroundMode"
        case bluetoothInBackground = "bluetoothBackgroundMode"
    }

    /// Records stored before a setting existed read it as its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        relaunchAfterForceQuit = try container.decodeIfPresent(Bool.self, forKey: .relaunchAfterForceQuit) ?? true
        locationInBackground = try container.decodeIfPresent(Bool.self, forKey: .locationInBackground) ?? false
        bluetoothInBackground = try container.decodeIfPresent(Bool.self, forKey: .bluetoothInBackground) ?? false
        exitsOnSuspend = try container.decodeIfPresent(Bool.self, forKey: .exitsOnSuspend) ?? false
    }
}
