#if canImport(Glibc)
import Glibc
#endif

/// A FeatureCollection around the given feature texts.
func collection(_ features: String...) -> String {
    "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
}

func polygonFeature(_ id: String, _ rings: String) -> String {
    "{\"type\":\"Feature\",\"id\":\"\(id)\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":\(rings)},\"properties\":{}}"
}

func circleFeature(_ id: String, _ lon: Double, _ lat: Double, radius: String) -> String {
    "{\"type\":\"Feature\",\"id\":\"\(id)\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lon),\(lat)]},\"properties\":{\"radius\":\(radius)}}"
}

let unitSquare = "[[[0,0],[1,0],[1,1],[0,1],[0,0]]]"
