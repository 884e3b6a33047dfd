import GeoWakeCore

/// The track, thinned to the pixel grid and cut into one polyline per run of a ramp colour, and the
/// accuracy circles of fixes whose accuracy is poor (one per pixel and radius: a million fixes parked
/// in one place need one circle).
struct TrackLayer {
    let projection: MapProjection
    let options: MapOptions

    /// The range the colour ramp spans, for the legend: metres per second, or seconds since the first fix.
    struct Scale {
        var low: Double
        var high: Double
    }

    /// Each fix's value on the ramp's quantity: its speed (or, without one, the speed from the fix before), or its time.
    func values(_ fixes: [Fix]) -> [Double] {
        var values = [Double](repeating: 0, count: fixes.count)
        let firstTime = fixes.lazy.compactMap(\.time).first
        for i in fixes.indices {
            let fix = fixes[i]
            switch options.trackColouring {
            case .time:
                values[i] = fix.time.flatMap { t in firstTime.map { t - $0 } } ?? (i > 0 ? values[i - 1] : 0)
            case .speed:
                if let speed = fix.speed {
                    values[i] = speed
                } else if i > 0, let t = fix.time, let t0 = fixes[i - 1].time, t - t0 > 0 {
                    values[i] = Geodesy.localDistance(fixes[i - 1].coordinate, fix.coordinate) / (t - t0)
                } else {
                    values[i] = i > 0 ? values[i - 1] : 0
                }
            }
        }
        return values
    }

    /// Writes the track; returns the ramp's range and the number of vertices drawn.
    func write(_ fixes: [Fix], to out: inout SVGText) -> (scale: Scale, vertices: Int) {
        let values = values(fixes)
        let scale = Scale(low: values.min() ?? 0, high: values.max() ?? 0)
        writeAccuracyCircles(fixes, to: &out)
        let points = fixes.map { fix -> PixelPoint in
            let (x, y) = projection.project(fix.coordinate)
            return PixelPoint(x: x, y: y)
        }
        let kept = TrackThinning.keptIndices(points)
        let span = scale.high - scale.low
        func step(_ i: Int) -> Int { MapPalette.step(span > 0 ? (values[i] - scale.low) / span : 0) }

        out.raw("<g id=\"track\" fill=\"none\" stroke-width=\"3\" stroke-linejoin=\"round\" stroke-linecap=\"round\">\n")
        var start = 0
        // A segment takes the colour of the fix it ends at; a run of one colour is one polyline.
        while start < kept.count - 1 {
            let colour = step(kept[start + 1])
            var end = start + 1
            while end + 1 < kept.count, step(kept[end + 1]) == colour { end += 1 }
            out.raw("<polyline stroke=\"\(MapPalette.ramp[colour])\" points=\"")
            for k in start...end {
                if k > start { out.raw(" ") }
                out.point(points[kept[k]])
            }
            out.raw("\"/>\n")
            start = end
        }
        if kept.count == 1 {
            out.raw("<circle r=\"2\" fill=\"\(MapPalette.ramp[0])\" cx=\"")
            out.number(points[0].x)
            out.raw("\" cy=\"")
            out.number(points[0].y)
            out.raw("\"/>\n")
        }
        out.raw("</g>\n")
        return (scale, kept.count)
    }

    private func writeAccuracyCircles(_ fixes: [Fix], to out: inout SVGText) {
        struct Key: Hashable { var x: Int32, y: Int32, r: Int32 }
        var drawn = Set<Key>()
        out.raw("<g id=\"accuracy\" fill=\"\(MapPalette.accuracy)\" fill-opacity=\"0.08\" stroke=\"\(MapPalette.accuracy)\" stroke-opacity=\"0.5\" stroke-dasharray=\"3 2\">\n")
        for fix in fixes {
            guard let accuracy = fix.horizontalAccuracy, accuracy > options.poorAccuracy else { continue }
            let (x, y) = projection.project(fix.coordinate)
            let r = accuracy / projection.metresPerPixel
            guard x + r >= 0, y + r >= 0, x - r <= projection.width, y - r <= projection.height,
                  drawn.insert(Key(x: Int32(clamping: Int(x.rounded())), y: Int32(clamping: Int(y.rounded())),
                                   r: Int32(clamping: Int(r.rounded())))).inserted else { continue }
            out.raw("<circle class=\"accuracy\" cx=\"")
            out.number(x)
            out.raw("\" cy=\"")
            out.number(y)
            out.raw("\" r=\"")
            out.number(r)
            out.raw("\"><title>accuracy ")
            out.integer(Int(accuracy.rounded()))
            out.raw(" m")
            if let time = fix.time { out.raw(" at "); out.clock(time) }
            out.raw("</title></circle>\n")
        }
        out.raw("</g>\n")
    }
}
