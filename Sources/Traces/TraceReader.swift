import GeoWakeCore

/// Reads any trace format, detecting it from the first bytes unless told. Same streaming protocol as
/// `NMEAReader`: `consume` chunks as they come, `finish` at the end of input.
public struct TraceReader: Sendable {
    /// The format, once known.
    public private(set) var format: TraceFormat?
    private var nmea = NMEAReader()
    private var gpsd = GPSDJSONReader()
    private var gpx = GPXReader()
    /// Bytes held back until the format is known.
    private var prefix: [UInt8] = []
    private var nextDetection = 1
    /// The first bytes, kept to say what a file in which nothing was recognised is.
    private var head: [UInt8] = []

    /// How much of the start is examined before giving up on detection.
    static let detectionLimit = 64 * 1024

    public init(format: TraceFormat? = nil) {
        self.format = format
    }

    public var statistics: TraceStatistics {
        switch format {
        case .nmea, nil: return nmea.statistics
        case .gpsdJSON: return gpsd.statistics
        case .gpx: return gpx.statistics
        }
    }

    /// Throws `TraceError` when the first bytes are none of the formats.
    public mutating func consume(_ bytes: UnsafeRawBufferPointer, _ emit: (Fix) -> Void) throws {
        if head.count < 4096 { head.append(contentsOf: bytes.prefix(4096 - head.count)) }
        guard format == nil else {
            feed(bytes, emit)
            return
        }
        prefix.append(contentsOf: bytes)
        // Detection re-reads the whole prefix, so it runs each time the prefix has doubled: linear
        // in total even when a pipe delivers a long comment header a byte at a time.
        guard prefix.count >= nextDetection else { return }
        nextDetection = prefix.count * 2
        format = prefix.withUnsafeBytes { TraceFormat.detect($0) }
        if format == nil {
            guard prefix.count >= TraceReader.detectionLimit else { return }
            throw TraceReader.unknownFormat
        }
        let held = prefix
        prefix = []
        held.withUnsafeBytes { feed($0, emit) }
    }

    public mutating func finish(_ emit: (Fix) -> Void) throws {
        if format == nil {
            format = prefix.withUnsafeBytes { TraceFormat.detect($0) }
            if format == nil {
                // Empty, blank or comment-only input is an empty trace; anything else is not a trace.
                let blank = prefix.allSatisfy { $0 <= UInt8(ascii: " ") }
                    || prefix.first(where: { $0 > UInt8(ascii: " ") }) == UInt8(ascii: "#")
                guard blank else { throw TraceReader.unknownFormat }
                format = .nmea
            }
            let held = prefix
            prefix = []
            held.withUnsafeBytes { feed($0, emit) }
        }
        switch format {
        case .nmea, nil: nmea.finish(emit)
        case .gpsdJSON:
            gpsd.finish(emit)
            if !gpsd.sawReport && gpsd.statistics.sentences > 0 { throw notATrace(jsonHint) }
        case .gpx:
            gpx.finish(emit)
            if gpx.statistics.sentences == 0 { throw notATrace(xmlHint) }
        }
    }

    /// What a JSON file without a single gpsd report is.
    private var jsonHint: String {
        contains("\"Feature") ? "a GeoJSON file, not a trace: regions go to --regions"
            : "JSON without any gpsd report (no line has a \"class\" member)"
    }

    /// What an XML file without a single GPX point is.
    private var xmlHint: String {
        if contains("<kml") {
            return "a KML file, not a trace: convert it to GPX, e.g. `gpsbabel -i kml -f FILE.kml -o gpx -F trace.gpx`"
        }
        if contains("<gpx") { return "a GPX file without any track, route or waypoint point (<trkpt>, <rtept>, <wpt>)" }
        return "XML that is not GPX"
    }

    private func notATrace(_ what: String) -> TraceError {
        TraceError("nothing recognised: \(what)", location: "byte 0")
    }

    private func contains(_ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard head.count >= needle.count else { return false }
        return (0...(head.count - needle.count)).contains { head[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    private static let unknownFormat = TraceError("not a trace: expected NMEA 0183 sentences, gpsd JSON lines or GPX 1.1",
                                                  location: "byte 0")

    private mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (Fix) -> Void) {
        switch format {
        case .nmea, nil: nmea.consume(bytes, emit)
        case .gpsdJSON: gpsd.consume(bytes, emit)
        case .gpx: gpx.consume(bytes, emit)
        }
    }
}
