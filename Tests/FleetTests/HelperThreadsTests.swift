#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import Fleet

/// A worker's helper threads (libnats's, the lease renewal's) wake for nearly every message; they must not
/// preempt the thread that runs the devices.
@Suite struct HelperThreadsTests {
    @Test("yieldToCaller makes every other thread of the process a SCHED_BATCH thread and leaves the calling thread's policy as it was")
    func helperThreadsRunBehindTheCaller() throws {
        let parked = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var helper: pid_t?
        let thread = Thread {
            helper = HelperThreads.callingThread
            started.signal()
            parked.wait()
        }
        thread.start()
        started.wait()
        defer {
            parked.signal()
            Self.restoreEveryThread()
        }
        let caller = try #require(HelperThreads.callingThread)
        let helperThread = try #require(helper)
        #expect(helperThread != caller)
        let policyBefore = sched_getscheduler(0)
        HelperThreads.yieldToCaller()
        #expect(sched_getscheduler(helperThread) == HelperThreads.batchPolicy)
        #expect(sched_getscheduler(0) == policyBefore)
        #expect(policyBefore != HelperThreads.batchPolicy)
    }

    /// The test process's threads back to the default policy.
    static func restoreEveryThread() {
        var parameters = sched_param(sched_priority: 0)
        HelperThreads.forEachThread { _ = sched_setscheduler($0, SCHED_OTHER, &parameters) }
    }
}
