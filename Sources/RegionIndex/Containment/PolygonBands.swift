import CIntrinsics

/// Horizontal bands of edges per polygon part, so the crossing-number test looks only at edges whose
/// latitude range meets the point's band instead of at every edge. A part of at most 64 edges keeps a
/// bit mask of edges per band in its header (8 bands of 32 edges, or 4 of 64); a larger one, like a time
/// zone with 100 000 vertices, keeps a list of edges per band. Horizontal edges never cross a ray and are
/// left out of the bands (a large part lists them after its bands, for boundary distances). Edges are
/// numbered by their first position from the part's first, so a query needs no ring structure at all.
///
/// Everything a query needs about a part sits in its header, 64 bytes stored on a cache line of its own
/// (see `CacheLineArray`): at a million regions each separate read would be a cache miss of its own.
struct PartHeader: Equatable {
    var minY: Double
    /// Bands per degree of latitude.
    var scale: Double
    var firstPosition: StoredPosition
    var slot: RegionSlot
    /// Bands: 8 or 4 (small parts, masks), 16 or more (large parts, lists); 0 once the part's region is
    /// removed (see `kind`).
    var bandCount: UInt32
    /// Index in `rasters`, or -1 (small parts).
    var raster: Int32
    /// Small parts: the bands' edge masks, a word each (8 bands) or two words each, low first (4 bands).
    /// Large parts: the index of the first band in `bandEdgeStart`, in the first word.
    var words = SIMD8<UInt32>()
}

/// What a part header's band count says of its part.
enum PartKind {
    /// At most 64 edges, in 4 or 8 bands of edge masks kept in the header.
    case small
    /// More edges, in 16 or more bands of edge lists, and a raster (`PartRaster`).
    case large
    /// The part's region is removed: it contains nothing.
    case removed
}

extension PartHeader {
    var kind: PartKind {
        @inline(__always) get { bandCount == 0 ? .removed : bandCount <= 8 ? .small : .large }
    }

    /// Whether the part is small: its bands' edges are masks in the header.
    var isMasked: Bool { @inline(__always) get { kind == .small } }

    /// Makes the part contain nothing: its region is removed.
    mutating func markRemoved() { bandCount = 0 }

    /// The edges of a small part's band holding latitude y.
    @inline(__always)
    func mask(y: Double) -> UInt64 { mask(band: RegionStore.band(y, minY, scale, Int(bandCount))) }

    @inline(__always)
    func mask(band: Int) -> UInt64 {
        bandCount == 8 ? UInt64(words[band]) : UInt64(words[2 * band]) | UInt64(words[2 * band + 1]) << 32
    }

    /// A large part's first band in `bandEdgeStart`.
    var firstBand: Int { Int(words[0]) }
}

extension RegionStore {
    static let maskedEdgeLimit = 64
    /// Band density of large parts (see `bands(ofPart:)`): at most one band per 16 edges, and bands at least
    /// 4 times as tall as the mean rise of an edge, so that few edges are listed in more than one band.
    static let edgesPerBand = 16
    static let bandRiseShare = 4.0

    /// Computes the bands of the parts appended since the last call: the loader does this for all it
    /// loads, on every core, and the index for regions it adds.
    package mutating func appendMissingBands(partsPerChunk: Int = Self.partsPerChunk) {
        let missing = partHeaders.count..<(partRingStart.count - 1)
        let chunks = chunkRanges(of: missing, atLeast: partsPerChunk)
        if chunks.count == 1 {
            for part in missing { partHeaders.append(storingLists(bands(ofPart: part))) }
        } else {
            // Headers are written in place on every core; large parts' lists are appended after, in order.
            let store = self
            var lists = [[(part: Int, lists: [[UInt32]])]](repeating: [], count: chunks.count)
            partHeaders.append(count: missing.count) { headers in
                lists.withUnsafeMutableBufferPointer { lists in
                    inParallel(chunks) { k, chunk in
                        for part in chunk {
                            let bands = store.bands(ofPart: part)
                            (headers.baseAddress! + part - missing.lowerBound).initialize(to: bands.header)
                            if !bands.header.isMasked { lists[k].append((part, bands.lists)) }
                        }
                    }
                }
            }
            for (part, lists) in lists.joined() { partHeaders[part].words[0] = appendLists(lists) }
        }
        for part in missing { appendRaster(ofPart: part) }
    }

    /// Parts in a chunk of a bulk band computation.
    static let partsPerChunk = 50_000

    /// A part's header and, for a large part, its band lists, before they are appended to the store.
    struct PartBands {
        var header: PartHeader
        var lists: [[UInt32]]
    }

    /// A part's header, its band lists appended first when it is a large part (the header then learns
    /// where they start).
    mutating func storingLists(_ part: PartBands) -> PartHeader {
        var header = part.header
        if !header.isMasked { header.words[0] = appendLists(part.lists) }
        return header
    }

    /// Appends a large part's band lists; returns the index of its first band in `bandEdgeStart`.
    mutating func appendLists(_ lists: [[UInt32]]) -> UInt32 {
        let first = UInt32(bandEdgeStart.count)
        for list in lists {
            bandEdgeStart.append(UInt32(bandEdges.count))
            bandEdges.append(contentsOf: list)
        }
        bandEdgeStart.append(UInt32(bandEdges.count))
        return first
    }

    /// Computes the bands of part `part` (its rings and positions must already be stored).
    func bands(ofPart part: Int) -> PartBands {
        let edgeCount = positions(ofPart: part).count - 1
        let box = bounds(ofPart: part), minY = box.minY, maxY = box.maxY
        let masked = edgeCount <= Self.maskedEdgeLimit
        var count = edgeCount <= 32 ? 8 : 4
        if !masked {
            // Tall bands, about 16 edges each, fewer when long edges would be listed in many of them: the
            // lists then hold about 1.25 entries per edge. Only points in the raster's boundary cells walk one.
            var rise = 0.0
            forEachEdge(ofPart: part) { _, _, y0, _, y1 in rise += abs(y1 - y0) }
            count = max(16, min(1 << 22, edgeCount / Self.edgesPerBand,
                                Int(Double(edgeCount) * (maxY - minY) / (rise * Self.bandRiseShare))))
        }
        let scale = maxY > minY ? Double(count) / (maxY - minY) : 0
        var header = PartHeader(minY: minY, scale: scale, firstPosition: partFirstStored[part], slot: partSlots[part],
                                bandCount: UInt32(count), raster: -1)
        // A large part's horizontal edges follow its bands, as one more list: distances need every edge.
        var lists = masked ? [] : [[UInt32]](repeating: [], count: count + 1)
        // Masks in a plain buffer: setting a lane of a vector variable stores and reloads all of it.
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 8) { masks in
            masks.initialize(repeating: 0)
            forEachEdge(ofPart: part) { edge, _, y0, _, y1 in
                guard y0 != y1 else {
                    if !masked { lists[count].append(UInt32(edge)) }
                    return
                }
                let low = Self.band(min(y0, y1), minY, scale, count), high = Self.band(max(y0, y1), minY, scale, count)
                for b in low...high {
                    if masked { masks[b] |= 1 << UInt64(edge) } else { lists[b].append(UInt32(edge)) }
                }
            }
            guard masked else { return }
            for b in 0..<count {
                if count == 8 {
                    header.words[b] = UInt32(truncatingIfNeeded: masks[b])
                } else {
                    header.words[2 * b] = UInt32(truncatingIfNeeded: masks[b])
                    header.words[2 * b + 1] = UInt32(truncatingIfNeeded: masks[b] >> 32)
                }
            }
        }
        return PartBands(header: header, lists: lists)
    }

    /// The band of latitude y, clamped: the same monotonic arithmetic for edges and points, so a point's
    /// band always lies within the bands of every edge whose latitude range contains it.
    @inline(__always)
    static func band(_ y: Double, _ minY: Double, _ scale: Double, _ count: Int) -> Int {
        let b = (y - minY) * scale
        return b < 0 ? 0 : b >= Double(count - 1) ? count - 1 : Int(b)
    }

    /// Whether one part (shell and holes) contains the point: from its raster when the point's cell is
    /// clear of edges, else by the crossing number over the edges of the point's band.
    @inline(__always)
    func partContains(_ part: Int, x: Double, y: Double) -> Bool {
        let header = partHeaders[part]
        guard header.kind != .removed else { return false }
        if header.raster >= 0 {
            switch rasterCell(Int(header.raster), x: x, y: y) {
            case .inside: return true
            case .outside: return false
            case .boundary, .unknown: break
            }
        }
        return partContainsByBands(header, x: x, y: y)
    }

    /// Crossing-number test of one part (shell and holes): odd means inside.
    @inline(__always)
    func partContainsByBands(_ header: PartHeader, x: Double, y: Double) -> Bool {
        let band = Self.band(y, header.minY, header.scale, Int(header.bandCount))
        if header.isMasked {
            return maskedPartContains(first: header.firstPosition, mask: header.mask(y: y), x: x, y: y)
        }
        let b = header.firstBand + band
        let edges = Int(bandEdgeStart[b])..<Int(bandEdgeStart[b + 1])
        let index = header.firstPosition.index
        return bandEdges.withUnsafeBufferPointer { list in
            var inside = false
            if !header.firstPosition.isFixedPoint {
                coordinates.withUnsafeBufferPointer { xy in
                    for k in edges where EdgeCrossing.crosses(xy.baseAddress!, index + Int(list[k]), x: x, y: y) {
                        inside.toggle()
                    }
                }
            } else {
                let query = FixedPointQuery(x: x, y: y)
                fixedCoordinates.withUnsafeBufferPointer { xy in
                    for k in edges where EdgeCrossing.crosses(xy.baseAddress!, index + Int(list[k]), query, x: x, y: y) {
                        inside.toggle()
                    }
                }
            }
            return inside
        }
    }

    /// Crossing parity over the edges in `mask`, numbered from stored position `first`. `query` is the
    /// point's `FixedPointQuery`: a caller testing several parts for one point makes it once.
    @inline(__always)
    func maskedPartContains(first: StoredPosition, mask: UInt64, x: Double, y: Double, query: FixedPointQuery? = nil) -> Bool {
        if !first.isFixedPoint { return maskedDoublePartContains(base: first.index, mask: mask, x: x, y: y) }
        let base = first.index, query = query ?? FixedPointQuery(x: x, y: y)
        return fixedCoordinates.withUnsafeBufferPointer { xy in
            // Stored values lie within ±2 147 483 000, so clamping the thresholds to 32 bits changes no comparison.
            var straddling: UInt64 = 0
            let crossing = fixed_edges_crossing(xy.baseAddress! + 2 * base, mask, Int64(xy.count / 2 - base),
                                                Int32(clamping: query.x), Int32(clamping: query.y), &straddling)
            var inside = crossing.nonzeroBitCount & 1 == 1
            while straddling != 0 {
                let i = base + straddling.trailingZeroBitCount
                straddling &= straddling - 1
                if EdgeCrossing.crosses(xy.baseAddress!, i, query, x: x, y: y) { inside.toggle() }
            }
            return inside
        }
    }

    /// The same for a part stored in doubles from vertex `base` of `coordinates`: rare, so kept out of the
    /// query's inlined code.
    @inline(never)
    func maskedDoublePartContains(base: Int, mask: UInt64, x: Double, y: Double) -> Bool {
        coordinates.withUnsafeBufferPointer { xy in
            var inside = false, mask = mask
            while mask != 0 {
                let i = base + mask.trailingZeroBitCount
                mask &= mask - 1
                if EdgeCrossing.crosses(xy.baseAddress!, i, x: x, y: y) { inside.toggle() }
            }
            return inside
        }
    }
}
