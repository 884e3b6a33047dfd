import GeoWakeCore
import LocationServices

extension JSONLineWriter {
    /// A delivered fix as one line, `{"event":"location",…}` or `{"event":"significant",…}`, then the
    /// fix's keys as `geowake fixes` prints them.
    public mutating func fixEventLine(_ event: String, _ fix: Fix) {
        beginObject()
        field("event", event)
        fixFields(fix)
        endLine()
    }

    /// A visit as one line: `{"event":"visit","time":…,"arrival":…,"departure":…,"lat":…,"lon":…,"radius":…}`,
    /// `time` being when it was reported and `departure` present once known.
    public mutating func visitLine(_ visit: Visit, reportedAt time: Timestamp) {
        beginObject()
        field("event", "visit")
        field("time", time)
        field("arrival", visit.arrival)
        if let departure = visit.departure { field("departure", departure) }
        field("lat", visit.center.latitude, decimals: 9)
        field("lon", visit.center.longitude, decimals: 9)
        field("radius", visit.radius, decimals: 3)
        endLine()
    }
}
