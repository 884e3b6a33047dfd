import CGEOS

/// A reentrant GEOS context: the one place geowake talks to libgeos_c. Not shared between threads.
final class GEOSContext {
    let handle: GEOSContextHandle_t

    init() {
        handle = GEOS_init_r()
    }

    deinit {
        GEOS_finish_r(handle)
    }

    /// A GEOS (Multi)Polygon from flat lon/lat pairs, ring ends (in positions) and polygon ends (in rings).
    /// The caller owns the result; nil when GEOS rejects the rings (unclosed, too short).
    func makeMultiPolygon(coordinates: UnsafeBufferPointer<Double>, ringEnds: ArraySlice<Int>,
                          polygonEnds: ArraySlice<Int>) -> OpaquePointer? {
        var polygons: [OpaquePointer?] = []
        var ring = ringEnds.startIndex
        var position = ring == 0 ? 0 : ringEnds[ring - 1]
        var failed = false
        for polygonEnd in polygonEnds where !failed {
            var rings: [OpaquePointer?] = []
            while ring < polygonEnd {
                let end = ringEnds[ring]
                let sequence = GEOSCoordSeq_copyFromBuffer_r(handle, coordinates.baseAddress! + 2 * position,
                                                             UInt32(end - position), 0, 0)
                if let sequence, let linearRing = GEOSGeom_createLinearRing_r(handle, sequence) {
                    rings.append(linearRing)
                } else {
                    failed = true
                }
                position = end
                ring += 1
            }
            if failed || rings.isEmpty {
                rings.forEach { GEOSGeom_destroy_r(handle, $0) }
                failed = true
                break
            }
            var holes = Array(rings.dropFirst())
            let polygon = holes.withUnsafeMutableBufferPointer {
                GEOSGeom_createPolygon_r(handle, rings[0], $0.baseAddress, UInt32($0.count))
            }
            polygons.append(polygon)
        }
        if failed {
            polygons.forEach { GEOSGeom_destroy_r(handle, $0) }
            return nil
        }
        if polygons.count == 1 { return polygons[0] }
        return polygons.withUnsafeMutableBufferPointer {
            GEOSGeom_createCollection_r(handle, Int32(GEOS_MULTIPOLYGON.rawValue), $0.baseAddress, UInt32($0.count))
        }
    }

    func destroy(_ geometry: OpaquePointer) {
        GEOSGeom_destroy_r(handle, geometry)
    }

    /// GEOS's reason why the geometry is invalid, with the place it found, or nil when it is valid.
    func validityProblem(_ geometry: OpaquePointer) -> String? {
        var reason: UnsafeMutablePointer<CChar>?
        var location: OpaquePointer?
        let valid = GEOSisValidDetail_r(handle, geometry, 0, &reason, &location)
        defer {
            if let reason { GEOSFree_r(handle, reason) }
            if let location { GEOSGeom_destroy_r(handle, location) }
        }
        if valid == 1 { return nil }
        guard valid == 0, let reason else { return "GEOS could not check the geometry" }
        var text = String(cString: reason)
        var x = 0.0, y = 0.0
        if let location, GEOSGeomGetX_r(handle, location, &x) == 1, GEOSGeomGetY_r(handle, location, &y) == 1 {
            text += " at [\(x), \(y)]"
        }
        return text
    }

    /// Prepared geometry for repeated point tests (the oracle in tests and the reference peer).
    func prepare(_ geometry: OpaquePointer) -> OpaquePointer? {
        GEOSPrepare_r(handle, geometry)
    }

    func destroyPrepared(_ prepared: OpaquePointer) {
        GEOSPreparedGeom_destroy_r(handle, prepared)
    }

    /// Whether the point lies in the prepared polygon, boundary included (as the GEOS peer counts it).
    func intersects(_ prepared: OpaquePointer, longitude: Double, latitude: Double) -> Bool {
        guard let point = GEOSGeom_createPointFromXY_r(handle, longitude, latitude) else { return false }
        defer { GEOSGeom_destroy_r(handle, point) }
        return GEOSPreparedIntersects_r(handle, prepared, point) == 1
    }
}
