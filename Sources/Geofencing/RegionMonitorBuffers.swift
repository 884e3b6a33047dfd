import RegionIndex

/// What a region monitor keeps from one fix to the next only to spare allocations: no state. A caller that
/// holds many monitors idle between bursts of fixes (a fleet worker's devices) lends one set to the monitor
/// it feeds (`RegionMonitor.exchangeBuffers(with:)`) instead of each monitor keeping its own (memory per
/// device) or freeing them after every burst (malloc and free were 8–9% of a worker's samples with one-fix
/// messages).
public struct RegionMonitorBuffers: Sendable {
    var containing: [RegionHandle] = []
    var crossings: [RegionHandle] = []
    /// Never shrinks while kept, so that the merge writes in place: its elements past a merge's output are
    /// leftovers.
    var mergeRoom: [RegionTrack] = []
    var pointQuery = PointQueryScratch()
    /// Where a new neighbourhood's regions are gathered before the neighbourhood keeps them at their size.
    var neighbourhoodRoom: [RegionMonitorNeighbourhood.Candidate] = []

    public init() {}
}
