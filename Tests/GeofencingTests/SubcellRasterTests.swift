import Testing
import GeoWakeCore
@testable import Geofencing
@testable import RegionIndex
@testable import Regions
import TestSupport

/// The grid's rasters may only decide what the exact tests would answer: every point of a sub-rectangle
/// marked inside (outside) is inside (outside) the shape, by the very code queries run otherwise.
@Suite struct SubcellRasterTests {
    @Test func rowsSetAreReadBackPerColumn() {
        var raster = SubcellRaster()
        raster.setRow(5, inside: 0b1000_0101, outside: 0b0011_0000)
        raster.setRow(2, inside: 0b0000_0001, outside: 0)
        #expect(raster.code(column: 0, row: 5) == SubcellRaster.insideCode)
        #expect(raster.code(column: 2, row: 5) == SubcellRaster.insideCode)
        #expect(raster.code(column: 7, row: 5) == SubcellRaster.insideCode)
        #expect(raster.code(column: 4, row: 5) == SubcellRaster.outsideCode)
        #expect(raster.code(column: 5, row: 5) == SubcellRaster.outsideCode)
        #expect(raster.code(column: 1, row: 5) == SubcellRaster.undecidedCode)
        #expect(raster.code(column: 0, row: 2) == SubcellRaster.insideCode)
        #expect(raster.code(column: 0, row: 6) == SubcellRaster.undecidedCode)
        raster.setRow(5, inside: 0, outside: 0)
        #expect(raster.code(column: 0, row: 5) == SubcellRaster.undecidedCode)
    }

    /// Frames of random size and place around a shape's box, as grid cells cut boxes.
    static func frames(around box: (minX: Double, minY: Double, maxX: Double, maxY: Double), count: Int,
                       rng: inout SeededGenerator) -> [SubcellFrame] {
        let w = box.maxX - box.minX, h = box.maxY - box.minY
        return (0..<count).map { _ in
            let x0 = box.minX + w * Double.random(in: -0.2...0.9, using: &rng)
            let y0 = box.minY + h * Double.random(in: -0.2...0.9, using: &rng)
            return SubcellFrame(x0: x0, y0: y0, width: w * Double.random(in: 0.01...0.2, using: &rng),
                                height: h * Double.random(in: 0.01...0.2, using: &rng))
        }
    }

    /// Checks every decided sub-rectangle on its corners and random points against `contains`; returns
    /// how many sub-rectangles were decided.
    static func check(_ raster: SubcellRaster, _ frame: SubcellFrame, rng: inout SeededGenerator,
                      contains: (Double, Double) -> Bool) -> Int {
        var decided = 0
        for row in 0..<8 {
            for column in 0..<8 {
                let code = raster.code(column: column, row: row)
                guard code != SubcellRaster.undecidedCode else { continue }
                decided += 1
                let x0 = frame.x0 + Double(column) * frame.width, y0 = frame.y0 + Double(row) * frame.height
                var points = [(x0, y0), (x0 + frame.width, y0), (x0, y0 + frame.height), (x0 + frame.width, y0 + frame.height)]
                for _ in 0..<6 {
                    points.append((x0 + frame.width * Double.random(in: 0...1, using: &rng),
                                   y0 + frame.height * Double.random(in: 0...1, using: &rng)))
                }
                for (x, y) in points where contains(x, y) != (code == SubcellRaster.insideCode) {
                    Issue.record("sub-rectangle \(column),\(row) has code \(code), but \(x),\(y) is not that")
                    return decided
                }
            }
        }
        return decided
    }

    /// A grid cell's places around a box: cells a random share of the box wide, the box somewhere in them.
    static func places(around box: (minX: Double, minY: Double, maxX: Double, maxY: Double),
                       rng: inout SeededGenerator) -> (CellPlaces, width: Double, height: Double) {
        let width = (box.maxX - box.minX) * Double.random(in: 0.1...0.6, using: &rng)
        let height = (box.maxY - box.minY) * Double.random(in: 0.1...0.6, using: &rng)
        let column = Double(Int.random(in: 0...3, using: &rng)), row = Double(Int.random(in: 0...3, using: &rng))
        let units = Double(256 * CellGrid.placementUnits)
        let places = CellPlaces(minX: box.minX - column * width, minY: box.minY - row * height,
                                perDegreeX: units / width, perDegreeY: units / height,
                                cellX: (column + Double(Int.random(in: 0...2, using: &rng))) * units,
                                cellY: (row + Double(Int.random(in: 0...2, using: &rng))) * units)
        return (places, width, height)
    }

    @Test func circleEntriesAgreeWithCircleContainmentAllButOnTheirBoundary() throws {
        var rng = SeededGenerator(seed: 91)
        let centres = [(13.4, 52.52), (179.9995, -33.0), (-179.9995, 10.0), (0.0, 79.0), (24.0, -79.5)]
        var decided = 0, undecided = 0, nearBoundary = 0
        for (lon, lat) in centres {
            for radius in [30.0, 240.0, 800.0, 20_000.0] {
                let circle = RegionStore.circle(longitude: lon, latitude: lat, radius: radius, slot: RegionSlot(0))
                var box: (Double, Double, Double, Double)?
                GeoBox.around(longitude: lon, latitude: lat, radius: radius) { b in
                    if box == nil { box = (b.minX, b.minY, b.maxX, b.maxY) }
                }
                for _ in 0..<40 {
                    let (places, width, height) = Self.places(around: try #require(box), rng: &rng)
                    // The frame: the whole cell the places describe.
                    let x0 = places.minX + places.cellX / places.perDegreeX, y0 = places.minY + places.cellY / places.perDegreeY
                    let frame = SubcellFrame(x0: x0, y0: y0, width: width / 8, height: height / 8, places: places)
                    let entry = circle.cellCircle(frame)
                    var points = (0..<20).map { _ in
                        (x0 + width * Double.random(in: 0...1, using: &rng), y0 + height * Double.random(in: 0...1, using: &rng))
                    }
                    for offset in [-1.0, -0.3, 0.3, 1.0] {
                        let p = Geodesy.destination(from: Coordinate(latitude: lat, longitude: lon),
                                                    bearing: Double.random(in: 0..<360, using: &rng), distance: radius + offset)
                        if p.longitude >= x0, p.longitude <= x0 + width, p.latitude >= y0, p.latitude <= y0 + height {
                            points.append((p.longitude, p.latitude))
                            nearBoundary += 1
                        }
                    }
                    for (x, y) in points {
                        let code = entry.code(x: places.x(x), y: places.y(y))
                        guard code != SubcellRaster.undecidedCode else { undecided += 1; continue }
                        decided += 1
                        #expect((code == SubcellRaster.insideCode) == circle.contains(longitude: x, latitude: y),
                                "\(x),\(y) against \(lon),\(lat) r \(radius)")
                    }
                }
            }
        }
        // Points a metre or less from a boundary test both sides of the ring; the ring itself is thin.
        #expect(nearBoundary > 150)
        #expect(decided > 10 * undecided)
    }

    @Test func circlesTheLocalMetricCannotDecideStayUndecided() {
        let polar = RegionStore.circle(longitude: 10, latitude: 89.5, radius: 5_000, slot: RegionSlot(0))
        let places = CellPlaces(minX: 9.9, minY: 89.49, perDegreeX: 65536 / 0.08, perDegreeY: 65536 / 0.008)
        let entry = polar.cellCircle(SubcellFrame(x0: 9.9, y0: 89.49, width: 0.01, height: 0.001, places: places))
        #expect(entry.code(x: places.x(10), y: places.y(89.5)) == SubcellRaster.undecidedCode)
        #expect(entry.code(x: places.x(9.95), y: places.y(89.495)) == SubcellRaster.undecidedCode)
    }

    @Test func polygonVerdictsAgreeWithPartContainment() throws {
        var rng = SeededGenerator(seed: 92)
        let regions = TestRegions.city(count: 400, seed: 93).filter {
            if case .polygon = $0.shape { return true } else { return false }
        }
        let index = try RegionIndex(regions: regions)
        let store = index.store
        var decided = 0
        for part in 0..<store.partHeaders.count {
            var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
            store.forEachVertex(ofPart: part) { x, y in
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
            let frames = Self.frames(around: (minX, minY, maxX, maxY), count: 6, rng: &rng)
            let shape = ShapeReference(part: part)
            var entries = [CellEntry](repeating: CellEntry(raster: .undecided, payload: shape.rawValue, tag: 0), count: frames.count)
            frames.withUnsafeBufferPointer { frames in
                entries.withUnsafeMutableBufferPointer { store.classify(shape: shape, frames: frames, entries: $0) }
            }
            for (frame, entry) in zip(frames, entries) {
                decided += Self.check(entry.raster, frame, rng: &rng) { store.partContains(part, x: $0, y: $1) }
            }
        }
        #expect(decided > 20_000)
    }

    /// A region the grid decided inside is still reported gone once removed, and found again once re-added.
    @Test func removedRegionsAreNotReportedFromTheGridsVerdicts() throws {
        let centre = Coordinate(latitude: 52.52, longitude: 13.40)
        var rng = SeededGenerator(seed: 94)
        let star = TestRegions.star(center: centre, radius: 2_000, vertices: 40, rng: &rng)
        let regions = [Region(id: "circle", shape: .circle(center: centre, radius: 1_500)),
                       Region(id: "star", shape: .polygon(MultiPolygon(polygons: [[star]])))]
            + TestRegions.city(count: 3_000, seed: 95)
        var index = try RegionIndex(regions: regions)
        let near = Geodesy.destination(from: centre, bearing: 30, distance: 300)
        let ids = { (index: RegionIndex) in Set(index.regions(containing: near).map { index.store.id($0) }) }
        #expect(ids(index).isSuperset(of: ["circle", "star"]))
        index.remove(try #require(index.handle(forID: "circle")))
        index.remove(try #require(index.handle(forID: "star")))
        #expect(ids(index).isDisjoint(with: ["circle", "star"]))
        try index.add(regions[0])
        #expect(ids(index).contains("circle"))
    }

    /// More undecided candidates than a query stages: every one is still tested.
    @Test func pilesOfUndecidedCandidatesAreAllTested() throws {
        let point = Coordinate(latitude: 48.1, longitude: 11.5)
        var regions: [Region] = []
        // Enough that more than a query stages contain the point (about 6 in 11 do).
        let count = 2 * RegionIndex.stagedCandidates + 100
        for k in 0..<count {
            // Centres 100 m away in every direction, radii from 99.5 to 100.5 m: the point lies a fraction
            // of a metre from every boundary, where no raster decides.
            let centre = Geodesy.destination(from: point, bearing: Double(k) * 360 / Double(count), distance: 100)
            regions.append(Region(id: "c\(k)", shape: .circle(center: centre, radius: 99.5 + Double(k % 11) / 10)))
        }
        let index = try RegionIndex(regions: regions)
        let got = Set(index.regions(containing: point).map { index.store.id($0) })
        let want = Set(regions.filter { region in
            guard case let .circle(c, r) = region.shape else { return false }
            return Geodesy.distance(c, point) <= r
        }.map(\.id))
        #expect(want.count > RegionIndex.stagedCandidates)
        #expect(got == want)
    }
}
