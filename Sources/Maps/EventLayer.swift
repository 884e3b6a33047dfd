import GeoWakeCore

/// Every event as a marker at the fix that decided it, labelled with its kind, region id and time.
struct EventLayer {
    let projection: MapProjection
    /// Past this many events, labels on the map would only cover each other (and tens of thousands of them
    /// made a browser take seconds): each marker then keeps its label for hovering only.
    static let drawnLabelLimit = 400

    func write(_ events: [RegionEvent], to out: inout SVGText) {
        let drawsLabels = events.count <= Self.drawnLabelLimit
        out.raw("<g id=\"events\" font-size=\"11\" stroke-width=\"1.5\">\n")
        for event in events {
            let (x, y) = projection.project(event.fix.coordinate)
            let colour = switch event.kind {
            case .enter: MapPalette.enter
            case .exit: MapPalette.exit
            case .dwell: MapPalette.dwell
            }
            out.raw("<g class=\"event \(event.kind.name)\" data-kind=\"\(event.kind.name)\" data-id=\"")
            out.escaped(event.regionID)
            out.raw("\"><circle r=\"5\" fill=\"white\" stroke=\"\(colour)\" cx=\"")
            out.number(x)
            out.raw("\" cy=\"")
            out.number(y)
            out.raw("\"/>")
            if drawsLabels {
                out.raw("<text fill=\"\(colour)\" stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\" x=\"")
                out.number(x + 7)
                out.raw("\" y=\"")
                out.number(y - 5)
                out.raw("\">")
                writeLabel(event, to: &out)
                out.raw("</text>")
            }
            out.raw("<title>")
            writeLabel(event, to: &out)
            out.raw("</title></g>\n")
        }
        out.raw("</g>\n")
    }

    private func writeLabel(_ event: RegionEvent, to out: inout SVGText) {
        out.raw(event.crossed ? "crossed \(event.kind.name) " : "\(event.kind.name) ")
        out.escaped(event.regionID)
        if let time = event.fix.time {
            out.raw(" ")
            out.clock(time)
        }
    }
}
