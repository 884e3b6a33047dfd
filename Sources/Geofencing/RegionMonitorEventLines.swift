extension JSONLineWriter {
    /// One `geowake replay` line for a region event:
    /// `{"event":"enter","region":"id","time":…,"lat":…,"lon":…}`, plus `"crossed":true` for a crossing.
    public mutating func regionEventLine(_ event: RegionEvent) {
        beginObject()
        field("event", event.kind.name)
        field("region", event.regionID)
        if let time = event.fix.time { field("time", time) }
        field("lat", event.fix.coordinate.latitude, decimals: 9)
        field("lon", event.fix.coordinate.longitude, decimals: 9)
        if event.crossed { field("crossed", true) }
        endLine()
    }
}
