import GeoWakeCore
import GeoWakeProtocol
import JSONLines
import LocationServices

/// The fix-fed services a client can start: the protocol's `startStandard`, `startSignificant`, `startVisits`.
enum ServiceKind: String, CaseIterable, Comparable {
    case standard, significant, visits

    static func < (a: ServiceKind, b: ServiceKind) -> Bool { a.rawValue < b.rawValue }
}

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
        func number(_ key: String) throws(ProtocolError) -> Double? {
            guard let value = options[key], value != .null else { return nil }
            guard case .number(let number) = value, number.isFinite else {
                throw .badRequest("\"\(key)\" must be a finite number")
            }
            return number
        }
        switch kind {
        case .standard:
            self = .standard(.init(distanceFilter: try number("distanceFilter") ?? 0, desiredAccuracy: try number("desiredAccuracy"),
                                   minimumInterval: try number("minimumInterval")))
        case .significant:
            self = .significant(.init(distance: try number("distance") ?? 500, interval: try number("interval") ?? 300))
        case .visits:
            self = .visits(.init(radius: try number("radius") ?? 100, minimumDuration: try number("minimumDuration") ?? 300))
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
