import Foundation
import Testing
import GeoWakeCore
import ProcessLifecycle
import GeoWakeProtocol

/// Background fetch on the pure lifecycle and a fake clock (`at(seconds)`): when fetches start, what they do to the
/// client, and how results move the next one.
@Suite struct BackgroundFetchTests {
    /// Client "a", registered, with `minimumInterval` set at `at(0)`.
    func fetching(every minimumInterval: Double, _ options: LaunchOptions = LaunchOptions(),
                  configure: (inout LifecycleSettings) -> Void = { _ in }) -> AppLifecycle {
        var settings = LifecycleSettings()
        configure(&settings)
        var lifecycle = AppLifecycle(settings: settings)
        lifecycle.register("a", options: options)
        lifecycle.setBackgroundFetch("a", minimumInterval: minimumInterval, at: at(0))
        return lifecycle
    }

    @Test func theFirstFetchComesOneMinimumIntervalAfterItIsSetAndLaunchesTheClientWithReasonFetch() {
        var life = fetching(every: 60)
        #expect(life.nextDeadline == at(60))
        #expect(life.advance(to: at(59.9)) == [])
        #expect(life.advance(to: at(60)) == [.launch(client: "a", reason: .fetch), .fetch(client: "a")])
        #expect(life.apps["a"]!.state == .background && life.apps["a"]!.lastLaunchReason == .fetch)
        #expect(life.budgetLeft("a", at: at(60)) == 30, "a fetch has a budget of its own, 30 s by default")
        #expect(life.advance(to: at(61)) == [], "one fetch at a time")
    }

    @Test func noDataDoublesTheIntervalFailedQuadruplesItBothUpToSixteenTimesTheMinimumAndNewDataResetsIt() {
        var schedule = BackgroundFetchSchedule(minimumInterval: 10, at: at(0))
        var intervals: [Double] = []
        for _ in 0..<5 {
            schedule.start(at: schedule.due, budget: 30)
            schedule.finish(.noData, at: schedule.due)
            intervals.append(schedule.interval)
        }
        #expect(intervals == [20, 40, 80, 160, 160])
        schedule.finish(.newData, at: at(1000))
        #expect(schedule.interval == 10 && schedule.due == at(1010), "the next fetch is due one interval after the last ended")
        schedule.finish(.failed, at: at(1010))
        #expect(schedule.interval == 40)
        schedule.finish(.failed, at: at(1050))
        #expect(schedule.interval == 160 && schedule.lastResult == .failed)
    }

    @Test func aResultSuspendsAClientNothingElseKeepsAndTheNextFetchThawsItAfterTheStretchedInterval() {
        var life = fetching(every: 10)
        _ = life.advance(to: at(10))
        #expect(life.completeBackgroundFetch("a", .noData, at: at(12)) == [.suspend(client: "a")])
        #expect(life.apps["a"]!.state == .suspended)
        #expect(life.nextDeadline == at(32), "noData: 20 s after the result")
        #expect(life.advance(to: at(31.9)) == [])
        #expect(life.advance(to: at(32)) == [.thaw(client: "a"), .fetch(client: "a")])
        #expect(life.apps["a"]!.lastLaunchReason == .fetch && life.budgetLeft("a", at: at(32)) == 30)
        #expect(life.completeBackgroundFetch("a", .newData, at: at(33)) == [.suspend(client: "a")])
        #expect(life.nextDeadline == at(43), "newData: back to the minimum")
    }

    @Test func aFetchWithoutAResultBeforeItsBudgetEndsCountsAsFailed() {
        var life = fetching(every: 10) { $0.fetchBudget = 5 }
        _ = life.advance(to: at(10))
        #expect(life.advance(to: at(14.9)) == [])
        #expect(life.advance(to: at(15)) == [.suspend(client: "a")])
        let fetch = life.apps["a"]!.fetch!
        #expect(fetch.lastResult == .failed && fetch.interval == 40 && fetch.due == at(55))
        #expect(life.completeBackgroundFetch("a", .newData, at: at(16)) == nil, "too late: no fetch runs")
    }

    @Test func aFetchProcessThatEndsBeforeItsResultCountsAsFailed() {
        var life = fetching(every: 10)
        _ = life.advance(to: at(10))
        life.connected("a", at: at(10.5))
        #expect(life.exited("a", .exited(0), at: at(11)) == [])
        #expect(life.apps["a"]!.fetch!.lastResult == .failed && life.apps["a"]!.state == .notRunning)
    }

    @Test func anEventDuringAFetchKeepsTheClientForTheEventsBudgetAfterTheResult() {
        var life = fetching(every: 10)
        _ = life.advance(to: at(10))
        #expect(life.eventQueued(for: "a", reason: .region, at: at(12)) == [])
        #expect(life.completeBackgroundFetch("a", .newData, at: at(13)) == [])
        #expect(life.advance(to: at(21.9)) == [])
        #expect(life.advance(to: at(22)) == [.suspend(client: "a")])
    }

    @Test func aClientAlreadyInTheBackgroundIsToldToFetchWithoutALaunchAndGetsTheFetchBudget() {
        var life = fetching(every: 5)
        #expect(life.eventQueued(for: "a", reason: .region, at: at(0)) == [.launch(client: "a", reason: .region)])
        #expect(life.advance(to: at(5)) == [.fetch(client: "a")])
        #expect(life.budgetLeft("a", at: at(5)) == 30)
        #expect(life.apps["a"]!.lastLaunchReason == .region)
    }

    @Test func aClientThatExitsOnSuspendIsTerminatedAfterItsResultAndLaunchedForTheNextFetch() {
        var life = fetching(every: 10, LaunchOptions(exitsOnSuspend: true))
        _ = life.advance(to: at(10))
        #expect(life.completeBackgroundFetch("a", .newData, at: at(11)) == [.terminate(client: "a")])
        #expect(life.exited("a", .signaled(SIGTERM), at: at(11.2)) == [])
        #expect(life.advance(to: at(21)) == [.launch(client: "a", reason: .fetch), .fetch(client: "a")])
    }

    @Test func aClientInTheForegroundDisabledOrForceQuitWithoutRelaunchIsNotFetchedAndItsFetchIsSkipped() {
        var foreground = fetching(every: 10)
        foreground.connected("a", at: at(1))
        #expect(foreground.advance(to: at(10)) == [])
        #expect(foreground.nextDeadline == at(20), "skipped: the next one an interval later")

        var disabled = fetching(every: 10)
        _ = disabled.disable("a", at: at(1))
        #expect(disabled.advance(to: at(10)) == [] && disabled.advance(to: at(20)) == [])
        disabled.enable("a")
        #expect(disabled.advance(to: at(30)) == [.launch(client: "a", reason: .fetch), .fetch(client: "a")])

        var forceQuit = fetching(every: 10, LaunchOptions(relaunchAfterForceQuit: false))
        _ = forceQuit.eventQueued(for: "a", reason: .region, at: at(0))
        _ = forceQuit.exited("a", .signaled(SIGKILL), at: at(1))
        #expect(forceQuit.advance(to: at(10)) == [])
    }

    @Test func settingTheSameMinimumKeepsTheScheduleAnotherStartsItAfreshAndNilStopsFetches() {
        var life = fetching(every: 10)
        _ = life.advance(to: at(10))
        _ = life.completeBackgroundFetch("a", .noData, at: at(11))
        life.setBackgroundFetch("a", minimumInterval: 10, at: at(12))
        #expect(life.apps["a"]!.fetch!.interval == 20 && life.nextDeadline == at(31), "a relaunched client sets it again")
        life.setBackgroundFetch("a", minimumInterval: 3, at: at(12))
        #expect(life.apps["a"]!.fetch!.interval == 3 && life.nextDeadline == at(15))
        life.setBackgroundFetch("a", minimumInterval: nil, at: at(13))
        #expect(life.nextDeadline == nil && life.advance(to: at(100)) == [])
    }

    @Test func completingWhenNoFetchRunsChangesNothing() {
        var life = fetching(every: 10)
        #expect(life.completeBackgroundFetch("a", .newData, at: at(1)) == nil)
        #expect(life.nextDeadline == at(10))
    }

    @Test func aRecordStoredWithoutAFetchScheduleReadsNoneAndOneWithItReadsItBack() throws {
        let old = #"{"options":{"relaunchAfterForceQuit":true},"state":"suspended","disabled":false,"forceQuit":false,"crashes":0,"openTasks":[],"nextTaskID":1,"usedTasks":false,"warned":false,"continuousLocation":false}"#
        let record = try JSONDecoder().decode(AppRecord.self, from: Data(old.utf8))
        #expect(record.fetch == nil && record.state == .suspended)
        var life = fetching(every: 10)
        _ = life.advance(to: at(10))
        _ = life.completeBackgroundFetch("a", .noData, at: at(11))
        let stored = life.apps["a"]!
        #expect(try JSONDecoder().decode(AppRecord.self, from: JSONEncoder().encode(stored)) == stored)
    }
}
