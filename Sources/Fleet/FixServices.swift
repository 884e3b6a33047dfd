import GeoWakeCore
import JSONLines
import LocationServices

/// The services a device's every fix goes to besides its region monitors: the standard, significant-change
/// and visit services the fleet runs, the very `ServiceReplay` values `geowake replay --service` drives.
struct FixServices {
    var standard: ServiceReplay<StandardLocationFilter>?
    var significant: ServiceReplay<SignificantChangeDetector>?
    var visits: ServiceReplay<VisitDetector>?

    /// Fresh services, as the fleet's configuration names them; nil when it names none.
    init?(_ services: FleetServices) {
        guard services.standard != nil || services.significant != nil || services.visits != nil else { return nil }
        standard = services.standard.map { ServiceReplay(StandardLocationFilter(configuration: $0)) }
        significant = services.significant.map { ServiceReplay(SignificantChangeDetector(configuration: $0)) }
        visits = services.visits.map { ServiceReplay(VisitDetector(configuration: $0)) }
    }

    /// Feeds one fix to each service, handing `line` each event's line (without its newline), written in `writer`.
    mutating func feed(_ fix: Fix, writer: inout JSONLineWriter, line: (ArraySlice<UInt8>) throws -> Void) throws {
        try standard?.feed(fix) { updates in
            for update in updates {
                writer.removeAll()
                writer.fixEventLine("location", update.fix)
                try line(writer.bytes.dropLast())
            }
        }
        try significant?.feed(fix) { changes in
            for change in changes {
                writer.removeAll()
                writer.fixEventLine("significant", change.fix)
                try line(writer.bytes.dropLast())
            }
        }
        try visits?.feed(fix) { events in
            for event in events {
                writer.removeAll()
                writer.visitLine(event.visit, reportedAt: event.reportedAt)
                try line(writer.bytes.dropLast())
            }
        }
    }

    /// Lets go of the services' event buffers, which hold nothing between fixes.
    mutating func releaseEventBuffers() {
        standard?.releaseEventBuffer()
        significant?.releaseEventBuffer()
        visits?.releaseEventBuffer()
    }
}
