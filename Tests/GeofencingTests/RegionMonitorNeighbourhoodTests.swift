import Testing
import GeoWakeCore
@testable import Geofencing
import RegionIndex
import Regions
import TestSupport

/// The regions near a recent fix, kept by every region monitor between fixes (thousands of them in a fleet worker).
@Suite struct RegionMonitorNeighbourhoodTests {
    /// 300 circles within 100 m of the centre, and 5 around a point 2 km east.
    static let regions: [Region] = {
        var regions: [Region] = []
        for i in 0..<300 {
            let at = Berlin.offset(Double(i % 90), bearing: Double(i) * 37)
            regions.append(Berlin.circle("near\(i)", radius: 20 + Double(i % 7) * 10, at: at))
        }
        for i in 0..<5 {
            regions.append(Berlin.circle("far\(i)", radius: 50, at: Berlin.offset(2000 + Double(i) * 10)))
        }
        return regions
    }()

    @Test("A device walking from a crowd of regions to a sparse place: each neighbourhood is gathered in the lent room and kept at its size, and answers containment as the index does")
    func neighbourhoodsAreKeptAtTheirSize() throws {
        let index = try RegionIndex(regions: Self.regions)
        var neighbourhood = RegionMonitorNeighbourhood()
        var scratch = PointQueryScratch()
        var room: [RegionMonitorNeighbourhood.Candidate] = []
        var largest = 0
        for metres in stride(from: 0.0, through: 2000, by: 2) {
            let point = Berlin.offset(metres)
            var hits: [RegionHandle] = []
            neighbourhood.appendRegions(containing: point, in: index, to: &hits, scratch: &scratch, room: &room)
            var expected: [RegionHandle] = []
            index.forEachRegion(containing: point) { expected.append($0) }
            #expect(hits.sorted() == expected.sorted(), "at \(metres) m")
            largest = max(largest, room.count)
            #expect(neighbourhood.keptCapacity >= room.count)
            #expect(neighbourhood.keptCapacity <= room.count + room.count / 4 + 4, "at \(metres) m")
        }
        #expect(largest >= 250)
        #expect(room.count <= 10)
        #expect(room.capacity >= largest)
    }
}
