/// Region state changes as runs of consecutive rowids that take the same stored state, each row's last change
/// counting: what `saveRegionStates` writes with one statement a run.
struct RegionStateRuns: Sequence {
    struct Run {
        var rows: ClosedRange<Int64>
        var entry: SharedRegions.Entry
    }

    private let runs: [Run]

    init(_ changes: [SharedRegions.Change]) {
        // Stable by row, so that of a row's changes the last is the one kept.
        let ordered = changes.indices.sorted { (changes[$0].entry.row, $0) < (changes[$1].entry.row, $1) }
        var runs: [Run] = []
        for (position, index) in ordered.enumerated() {
            let entry = changes[index].entry
            if position + 1 < ordered.count, changes[ordered[position + 1]].entry.row == entry.row { continue }
            if let last = runs.last, last.rows.upperBound + 1 == entry.row, Self.sameState(last.entry, entry) {
                runs[runs.count - 1].rows = last.rows.lowerBound...entry.row
            } else {
                runs.append(Run(rows: entry.row...entry.row, entry: entry))
            }
        }
        self.runs = runs
    }

    func makeIterator() -> IndexingIterator<[Run]> { runs.makeIterator() }

    private static func sameState(_ a: SharedRegions.Entry, _ b: SharedRegions.Entry) -> Bool {
        a.state == b.state && a.since == b.since && a.dwellSent == b.dwellSent
    }
}
