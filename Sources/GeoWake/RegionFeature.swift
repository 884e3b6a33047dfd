import GeoWakeCore

extension Region {
    /// The GeoJSON feature the protocol's `monitor` takes for this region.
    var feature: JSONValue {
        var properties: [String: JSONValue] = [:]
        if !notifyOnEntry { properties["notifyOnEntry"] = false }
        if !notifyOnExit { properties["notifyOnExit"] = false }
        if let dwell { properties["dwell"] = .number(dwell) }
        let geometry: JSONValue
        func position(_ c: Coordinate) -> JSONValue { [.number(c.longitude), .number(c.latitude)] }
        switch shape {
        case .circle(let center, let radius):
            properties["radius"] = .number(radius)
            geometry = ["type": "Point", "coordinates": position(center)]
        case .polygon(let multi):
            geometry = ["type": "MultiPolygon", "coordinates": .array(multi.polygons.map { polygon in
                .array(polygon.map { ring in .array(ring.map(position)) })
            })]
        case .beacon(let beacon):
            properties["kind"] = "beacon"
            properties["uuid"] = .string(beacon.uuid)
            if let major = beacon.major { properties["major"] = .number(Double(major)) }
            if let minor = beacon.minor { properties["minor"] = .number(Double(minor)) }
            geometry = .null
        }
        return ["type": "Feature", "id": .string(id), "properties": .object(properties), "geometry": geometry]
    }
}
