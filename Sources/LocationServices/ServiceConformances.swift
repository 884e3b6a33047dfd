import GeoWakeCore

/// The fix-fed services behind the one service interface, each with its typed event; their older
/// `update(with:at:)` forms (a `Fix?`, a `[Visit]`) remain for existing callers.
extension StandardLocationFilter: LocationService {
    public mutating func update(with fix: Fix, at now: Timestamp, events: inout [LocationUpdate]) {
        if let delivered = update(with: fix, at: now) as Fix? { events.append(LocationUpdate(fix: delivered)) }
    }
}

extension SignificantChangeDetector: LocationService {
    public mutating func update(with fix: Fix, at now: Timestamp, events: inout [SignificantChange]) {
        if let change = update(with: fix, at: now) as Fix? { events.append(SignificantChange(fix: change)) }
    }
}

extension VisitDetector: LocationService {
    public mutating func update(with fix: Fix, at now: Timestamp, events: inout [VisitEvent]) {
        for visit in update(with: fix, at: now) as [Visit] { events.append(VisitEvent(visit: visit, reportedAt: now)) }
    }
}
