import GeoWakeCore

/// Every event as a marker at the fix that decided it, labelled with its kind, region id and time.
struct EventLayer {
    let projection: MapProjection
    /// Past this many events, labels on the map would only cover each other, and tens of thousands of markers
    /// made a browser take seconds: markers of one kind within `mergeCell` pixels then become one marker that
    /// says how many it stands for, and every label moves into its hover text.
    static let drawnLabelLimit = 400
    static let mergeCell = 4.0
    /// Lines of a merged marker's hover label; its `<title>` keeps every event.
    static let hoverLines = 12

    func write(_ events: [RegionEvent], to out: inout SVGText) {
        out.raw("<g id=\"events\" font-size=\"11\" stroke-width=\"1.5\">\n")
        if events.count <= Self.drawnLabelLimit {
            for event in events { writeMarker([event], drawsLabel: true, to: &out) }
        } else {
            for group in mergedByCell(events) { writeMarker(group, drawsLabel: false, to: &out) }
        }
        out.raw("</g>\n")
    }

    /// Events grouped by kind and pixel cell, in the order each group's first event happened.
    private func mergedByCell(_ events: [RegionEvent]) -> [[RegionEvent]] {
        struct Cell: Hashable { let kind: String, x: Int, y: Int }
        var groups: [[RegionEvent]] = []
        var groupOfCell: [Cell: Int] = [:]
        for event in events {
            let (x, y) = projection.project(event.fix.coordinate)
            let cell = Cell(kind: event.kind.name, x: Int((x / Self.mergeCell).rounded(.down)),
                            y: Int((y / Self.mergeCell).rounded(.down)))
            if let index = groupOfCell[cell] {
                groups[index].append(event)
            } else {
                groupOfCell[cell] = groups.count
                groups.append([event])
            }
        }
        return groups
    }

    /// One marker at the group's first event; a group of several says how many in `data-count` and lists them all.
    private func writeMarker(_ group: [RegionEvent], drawsLabel: Bool, to out: inout SVGText) {
        let first = group[0]
        let (x, y) = projection.project(first.fix.coordinate)
        let colour = switch first.kind {
        case .enter: MapPalette.enter
        case .exit: MapPalette.exit
        case .dwell: MapPalette.dwell
        }
        out.raw("<g class=\"event \(first.kind.name)\" data-kind=\"\(first.kind.name)\" data-id=\"")
        out.escaped(first.regionID)
        if group.count > 1 {
            out.raw("\" data-count=\"")
            out.integer(group.count)
        }
        out.raw("\"><circle r=\"\(group.count > 1 ? 6 : 5)\" fill=\"white\" stroke=\"\(colour)\" cx=\"")
        out.number(x)
        out.raw("\" cy=\"")
        out.number(y)
        out.raw("\"/>")
        if drawsLabel {
            out.raw("<text fill=\"\(colour)\" stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\" x=\"")
            out.number(x + 7)
            out.raw("\" y=\"")
            out.number(y - 5)
            out.raw("\">")
            writeLabel(first, to: &out)
            out.raw("</text>")
        }
        out.raw("<title>")
        if group.count > 1 {
            out.integer(group.count)
            out.raw(" \(first.kind.name) events here")
            for event in group {
                out.raw("\n")
                writeLabel(event, to: &out)
            }
        } else {
            writeLabel(first, to: &out)
        }
        out.raw("</title></g>\n")
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
