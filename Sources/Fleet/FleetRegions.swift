/// `geowake fleet regions put`: a new version of a region set, checked as `locate` checks a regions file,
/// stored in the regions bucket, then announced in every partition of the fixes stream so that each device
/// switches to it at one place in its input, the same place whenever that input is re-processed.
public enum FleetRegions {
    /// Returns the new revision and the number of regions in it.
    public static func put(_ connection: NATSConnection, set: String, geoJSON: [UInt8], layout: FleetLayout) throws -> (revision: UInt64, regions: Int) {
        let store = try RegionSets.load(geoJSON, name: set)
        try FleetSetup.ensure(connection, layout: layout)
        let revision = try RegionSets(connection, replicas: layout.replicas).put(set, geoJSON: geoJSON)
        let marker = RegionsMarker.payload(set: set, revision: revision)
        for partition in 0..<layout.partitions {
            try connection.publishAcknowledged(FleetLayout.regionsMarkerSubject(partition: partition), marker,
                                               messageID: "regions:\(set):\(revision):\(partition)")
        }
        return (revision, store.liveCount)
    }
}
