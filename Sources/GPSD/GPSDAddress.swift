extension GPSDSource.Configuration {
    /// Parses `gpsd://HOST:PORT/DEVICE`, every part optional: `gpsd://` alone is localhost:2947, all devices.
    /// An IPv6 host goes in brackets (`gpsd://[::1]:2947`); the device is the rest of the path (`/dev/ttyUSB0`).
    public init(url: String) throws(GPSDError) {
        let scheme = "gpsd://"
        guard url.hasPrefix(scheme) else { throw GPSDError("\(url): expected gpsd://HOST:PORT") }
        var rest = Substring(url.dropFirst(scheme.count))
        var device: String?
        if let slash = rest.firstIndex(of: "/") {
            device = String(rest[slash...])
            rest = rest[..<slash]
        }
        var host = Substring("localhost")
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw GPSDError("\(url): unclosed [ in the host") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty {
                throw GPSDError("\(url): expected :PORT after the host")
            }
        } else if let colon = rest.firstIndex(of: ":") {
            if colon > rest.startIndex { host = rest[..<colon] }
            portText = rest[rest.index(after: colon)...]
        } else if !rest.isEmpty {
            host = rest
        }
        var port = 2947
        if let portText {
            guard let parsed = Int(portText), (1...65535).contains(parsed) else {
                throw GPSDError("\(url): the port must be a number from 1 to 65535")
            }
            port = parsed
        }
        self.init(host: String(host), port: port, device: device == "/" ? nil : device)
    }
}
