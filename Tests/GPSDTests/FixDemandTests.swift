import GeoWakeCore
import Dispatch
@testable import GPSD
import Synchronization
import Testing
import GPSDTestSupport

/// A worker with no connection: the test publishes fixes itself.
private final class IdleWorker: SourceWorker {
    func stop() {}
    func waitUntilFinished() {}
}

private final class Flag: Sendable {
    private let value = Atomic(false)
    func raise() { value.store(true, ordering: .releasing) }
    var isRaised: Bool { value.load(ordering: .acquiring) }
}

@Suite struct FixDemandTests {
    @Test("Fixes published while consumers are being cancelled never deadlock the source")
    func publishingWhileConsumersAreCancelledDoesNotDeadlock() async {
        let demand = FixDemand { _, _ in IdleWorker() }
        let fix = Fix(time: nil, coordinate: Coordinate(latitude: 1, longitude: 2))
        let publishing = Flag(), consumersDone = Flag()
        DispatchQueue.global().async {
            while !consumersDone.isRaised { demand.publish(fix) }
            publishing.raise()
        }
        Task.detached {
            for _ in 0..<2_000 {
                let consumer = Task { for await _ in FixStream(demand: demand, bufferingNewest: 4) {} }
                await Task.yield()
                consumer.cancel()
                await consumer.value
            }
            consumersDone.raise()
        }
        #expect(await eventually(within: .seconds(30)) { consumersDone.isRaised }, "consumers stuck")
        #expect(await eventually(within: .seconds(5)) { publishing.isRaised }, "publisher stuck")
        #expect(demand.consumerCount == 0)
    }
}
