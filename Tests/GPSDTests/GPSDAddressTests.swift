import GPSD
import Testing

@Suite struct GPSDAddressTests {
    @Test("gpsd:// addresses name host, port and device, with gpsd's defaults for what is left out",
          arguments: [
              ("gpsd://", "localhost", 2947, nil),
              ("gpsd://example.org", "example.org", 2947, nil),
              ("gpsd://127.0.0.1:29470", "127.0.0.1", 29470, nil),
              ("gpsd://:3000", "localhost", 3000, nil),
              ("gpsd://[::1]:2948", "::1", 2948, nil),
              ("gpsd://localhost:2947/dev/ttyUSB0", "localhost", 2947, "/dev/ttyUSB0"),
          ] as [(String, String, Int, String?)])
    func parses(url: String, host: String, port: Int, device: String?) throws {
        let configuration = try GPSDSource.Configuration(url: url)
        #expect(configuration.host == host)
        #expect(configuration.port == port)
        #expect(configuration.device == device)
    }

    @Test("Malformed addresses are refused", arguments: ["http://localhost", "gpsd://host:0", "gpsd://host:port", "gpsd://[::1"])
    func refuses(url: String) {
        #expect(throws: GPSDError.self) { try GPSDSource.Configuration(url: url) }
    }
}
