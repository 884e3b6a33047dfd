import GeoWakeCore
import GeoWakeProtocol
import JSONLines
import LocationServices

/// A started service's options: the very configuration values `geowake replay` builds from its flags, checked by
/// their own `validate()` (the one place their limits live), so a client gets what `replay` gives.
enum ServiceConfiguration: Equatable {
    case standard(StandardLocationFilter.Configuration)
    case significant(SignificantChangeDetector.Configuration)
    case visits(VisitDetector.Configuration)

    var kind: ServiceKind {
        switch self {
        case .standard: .standard
        case .significant: .significant
        case .visits: .visits
        }
    }

    /// The options of a start request (or of a stored row), defaults as `replay`'s; a value of the wrong type names
    /// its field, an out-of-range one gets the service's own sentence.
    init(_ kind: ServiceKind, options: [String: JSONValue]) throws(ProtocolError) {
        let request = try ProtocolError.reading { () throws(RequestError) in try ServiceRequest(kind, fields: options) }
        switch request {
        case .standard(let distanceFilter, let desiredAccuracy, let minimumInterval):
            self = .standard(.init(distanceFilter: distanceFilter ?? 0, desiredAccuracy: desiredAccuracy, minimumInterval: minimumInterval))
        case .significant(let distance, let interval):
            self = .significant(.init(distance: distance ?? 500, interval: interval ?? 300))
        case .visits(let radius, let minimumDuration):
            self = .visits(.init(radius: radius ?? 100, minimumDuration: minimumDuration ?? 300))
        }
        do {
            switch self {
            case .standard(let configuration): try configuration.validate()
            case .significant(let configuration): try configuration.validate()
            case .visits(let configuration): try configuration.validate()
            }
        } catch {
            throw .badRequest(error.description)
        }
    }

    /// The options as stored and as `list` shows them, defaults filled in, keys sorted.
    var json: String {
        var writer = JSONLineWriter(reservingCapacity: 96)
        writer.beginObject()
        switch self {
        case .standard(let configuration):
            if let accuracy = configuration.desiredAccuracy { writer.field("desiredAccuracy", exactly: accuracy) }
            writer.field("distanceFilter", exactly: configuration.distanceFilter)
            if let interval = configuration.minimumInterval { writer.field("minimumInterval", exactly: interval) }
        case .significant(let configuration):
            writer.field("distance", exactly: configuration.distance)
            writer.field("interval", exactly: configuration.interval)
        case .visits(let configuration):
            writer.field("minimumDuration", exactly: configuration.minimumDuration)
            writer.field("radius", exactly: configuration.radius)
        }
        writer.endObject()
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
