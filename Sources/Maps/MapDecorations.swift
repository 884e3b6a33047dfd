/// What makes the picture readable: a scale bar, a north arrow and a legend.
struct MapDecorations {
    let projection: MapProjection
    let options: MapOptions

    /// The longest round distance (1, 2 or 5 times a power of ten metres) that fits a fifth of the width.
    static func scaleBarMetres(metresPerPixel: Double, width: Double) -> Double {
        let limit = metresPerPixel * width / 5
        var unit = 1.0
        while unit * 10 <= limit { unit *= 10 }
        while unit > limit && unit > 0.01 { unit /= 10 }
        return [5.0, 2, 1].map { $0 * unit }.first { $0 <= limit } ?? unit
    }

    func writeScaleBar(to out: inout SVGText) {
        let metres = Self.scaleBarMetres(metresPerPixel: projection.metresPerPixel, width: projection.width)
        let length = metres / projection.metresPerPixel
        let x = 20.0, y = projection.height - 20
        out.raw("<g id=\"scale\" font-size=\"12\"><rect x=\"")
        out.number(x - 6)
        out.raw("\" y=\"")
        out.number(y - 22)
        out.raw("\" width=\"")
        out.number(length + 12)
        out.raw("\" height=\"30\" fill=\"white\" fill-opacity=\"0.8\"/><path stroke=\"black\" stroke-width=\"2\" fill=\"none\" d=\"M")
        out.point(PixelPoint(x: x, y: y - 6))
        out.raw("V")
        out.number(y)
        out.raw("H")
        out.number(x + length)
        out.raw("V")
        out.number(y - 6)
        out.raw("\"/><text x=\"")
        out.number(x)
        out.raw("\" y=\"")
        out.number(y - 10)
        out.raw("\">")
        out.raw(metres >= 1000 ? "\(Self.trimmed(metres / 1000)) km" : "\(Self.trimmed(metres)) m")
        out.raw("</text></g>\n")
    }

    func writeNorthArrow(to out: inout SVGText) {
        let x = projection.width - 30, y = 20.0
        out.raw("<g id=\"north\" font-size=\"14\" font-weight=\"bold\" text-anchor=\"middle\"><path fill=\"black\" d=\"M")
        out.point(PixelPoint(x: x, y: y + 4))
        out.raw("L")
        out.point(PixelPoint(x: x + 8, y: y + 30))
        out.raw("L")
        out.point(PixelPoint(x: x, y: y + 24))
        out.raw("L")
        out.point(PixelPoint(x: x - 8, y: y + 30))
        out.raw("Z\"/><text x=\"")
        out.number(x)
        out.raw("\" y=\"")
        out.number(y + 46)
        out.raw("\">N</text></g>\n")
    }

    func writeLegend(scale: TrackLayer.Scale, hasTrack: Bool, to out: inout SVGText) {
        out.raw("<g id=\"legend\" font-size=\"12\"><rect x=\"10\" y=\"10\" width=\"230\" height=\"\(hasTrack ? 132 : 74)\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#999\"/>\n")
        var y = 28.0
        if hasTrack {
            let unit = options.trackColouring == .speed ? "km/h" : "min"
            let factor = options.trackColouring == .speed ? 3.6 : 1.0 / 60
            out.raw("<text x=\"18\" y=\"\(Int(y))\">track by \(options.trackColouring.rawValue): ")
            out.raw("\(Self.trimmed((scale.low * factor).rounded())) – \(Self.trimmed((scale.high * factor).rounded())) \(unit)</text>\n")
            y += 8
            for (i, colour) in MapPalette.ramp.enumerated() {
                out.raw("<rect x=\"\(18 + i * 26)\" y=\"\(Int(y))\" width=\"26\" height=\"8\" fill=\"\(colour)\"/>")
            }
            out.raw("\n")
            y += 26
            for (i, (name, colour)) in [("enter", MapPalette.enter), ("exit", MapPalette.exit), ("dwell", MapPalette.dwell)].enumerated() {
                let x = 24 + i * 70
                out.raw("<circle cx=\"\(x)\" cy=\"\(Int(y) - 4)\" r=\"5\" fill=\"white\" stroke=\"\(colour)\" stroke-width=\"1.5\"/>")
                out.raw("<text x=\"\(x + 9)\" y=\"\(Int(y))\">\(name)</text>")
            }
            out.raw("\n")
            y += 20
        }
        out.raw("<rect x=\"18\" y=\"\(Int(y) - 10)\" width=\"14\" height=\"10\" fill=\"\(MapPalette.enteredRegion)\" fill-opacity=\"0.4\" stroke=\"\(MapPalette.enteredRegion)\"/>")
        out.raw("<text x=\"38\" y=\"\(Int(y))\">region entered</text>\n")
        y += 18
        out.raw("<rect x=\"18\" y=\"\(Int(y) - 10)\" width=\"14\" height=\"10\" fill=\"\(MapPalette.otherRegion)\" fill-opacity=\"0.3\" stroke=\"\(MapPalette.otherRegion)\"/>")
        out.raw("<text x=\"38\" y=\"\(Int(y))\">region not entered</text>\n")
        if hasTrack {
            y += 18
            out.raw("<circle cx=\"25\" cy=\"\(Int(y) - 4)\" r=\"6\" fill=\"\(MapPalette.accuracy)\" fill-opacity=\"0.1\" stroke=\"\(MapPalette.accuracy)\" stroke-dasharray=\"3 2\"/>")
            out.raw("<text x=\"38\" y=\"\(Int(y))\">accuracy worse than \(Self.trimmed(options.poorAccuracy)) m</text>\n")
        }
        out.raw("</g>\n")
    }

    /// 5.0 as "5", 0.5 as "0.5".
    static func trimmed(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}
