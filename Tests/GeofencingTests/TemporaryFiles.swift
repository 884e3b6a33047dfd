#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under /tmp for one test, with helpers to write region files into it.
struct TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/geowake-tests-XXXXXX".utf8CString)
        path = String(cString: mkdtemp(&template)!)
    }

    @discardableResult
    func write(_ name: String, _ text: String) -> String {
        let file = path + "/" + name
        let handle = fopen(file, "w")!
        fputs(text, handle)
        fclose(handle)
        return file
    }
}

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
