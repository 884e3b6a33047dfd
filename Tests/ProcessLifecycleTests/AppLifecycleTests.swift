import Foundation
import Testing
import GeoWakeCore
import ProcessLifecycle
import GeoWakeProtocol

/// The pure lifecycle on a fake clock: seconds after a fixed start.
func at(_ seconds: Double) -> Timestamp { Timestamp(millisecondsSince1970: 1_800_000_000_000) + seconds }

@Suite struct AppLifecycleTests {
    func lifecycle(_ options: LaunchOptions = LaunchOptions(), configure: (inout LifecycleSettings) -> Void = { _ in }) -> AppLifecycle {
        var settings = LifecycleSettings()
        configure(&settings)
        var lifecycle = AppLifecycle(settings: settings)
        lifecycle.register("a", options: options)
        return lifecycle
    }

    /// The daemon writes only these apps' records after a turn: a change must mark its app, a read or a turn that
    /// changes nothing must not.
    @Test func theChangedAppsAreThoseATurnChangedAndNoOthers() {
        var life = lifecycle()
        life.register("b")
        #expect(life.takeChangedApps() == ["a", "b"])
        _ = life.apps["a"]?.state
        _ = life.advance(to: at(1))
        #expect(life.takeChangedApps().isEmpty, "reading and a turn with nothing due change nothing")
        life.connected("b", at: at(2))
        #expect(life.takeChangedApps() == ["b"])
        life.remove("a")
        #expect(life.takeChangedApps() == ["a"], "a removed app is changed too")
    }

    /// A turn looks only at the apps in a state with a deadline (`AppRecords` keeps their names as records change):
    /// an app that enters such a state by any path (a launch, a restored record) has its deadline kept, and one that
    /// leaves it (started by hand, removed) has none left.
    @Test func aDeadlineIsKeptForEveryWayIntoAStateThatHasOneAndDroppedForEveryWayOut() {
        var launched = lifecycle()
        _ = launched.eventQueued(for: "a", reason: .region, at: at(0))
        let deadline = launched.nextDeadline
        #expect(deadline != nil, "a launched app's budget ends")

        var life = lifecycle()
        #expect(life.nextDeadline == nil)
        life.restore("b", launched.apps["a"]!)
        #expect(life.nextDeadline == deadline, "a restored launched app keeps its budget's end")
        life.remove("b")
        #expect(life.nextDeadline == nil)
        _ = life.eventQueued(for: "a", reason: .region, at: at(0))
        #expect(life.nextDeadline == deadline)
        _ = life.replacedByUser("a", at: at(1))
        #expect(life.nextDeadline == nil, "a process started by hand has no budget")
    }

    @Test func anEventForAClientThatIsNotRunningLaunchesItWithTheReason() {
        var life = lifecycle()
        #expect(life.eventQueued(for: "a", reason: .region, at: at(0)) == [.launch(client: "a", reason: .region)])
        #expect(life.apps["a"]!.state == .background)
        #expect(life.apps["a"]!.lastLaunchReason == .region)
        #expect(life.budgetLeft("a", at: at(3)) == 7)
    }

    @Test func aClientStartedByHandReplacesALaunchedOrSuspendedInstanceButNotOneStartedByHand() {
        var life = lifecycle()
        _ = life.eventQueued(for: "a", reason: .region, at: at(0))
        let replaced = life.replacedByUser("a", at: at(1))
        #expect(replaced)
        #expect(life.apps["a"]!.state == .running && life.budgetLeft("a", at: at(2)) == nil && life.apps["a"]!.lastLaunchReason == nil)
        let again = life.replacedByUser("a", at: at(3))
        #expect(!again, "a process started by hand keeps its client")

        var suspended = lifecycle()
        _ = suspended.eventQueued(for: "a", reason: .location, at: at(0))
        _ = suspended.advance(to: at(10))
        #expect(suspended.apps["a"]!.state == .suspended)
        let thawed = suspended.replacedByUser("a", at: at(11))
        #expect(thawed)
        #expect(suspended.nextDeadline == nil, "no budget or kill is pending for the new process")
    }

    @Test func aClientThatExitsOnSuspendIsTerminatedWhenItsBudgetEndsAndLaunchedAgainForItsNextEvent() {
        var life = lifecycle(LaunchOptions(exitsOnSuspend: true))
        _ = life.eventQueued(for: "a", reason: .location, at: at(0))
        #expect(life.advance(to: at(10)) == [.terminate(client: "a")])
        #expect(life.apps["a"]!.state == .terminating)
        #expect(life.exited("a", .signaled(SIGTERM), at: at(10.5)) == [])
        #expect(life.apps["a"]!.state == .notRunning && life.apps["a"]!.crashes == 0, "ended by the daemon: no crash")
        #expect(life.eventQueued(for: "a", reason: .location, at: at(20)) == [.launch(client: "a", reason: .location)])
    }

    @Test func theBluetoothModeKeepsARangingClientRunningLikeTheLocationMode() {
        var life = lifecycle(LaunchOptions(bluetoothInBackground: true))
        _ = life.eventQueued(for: "a", reason: .beacon, at: at(0))
        life.continuousLocation("a", active: true, at: at(1))
        #expect(life.advance(to: at(60)) == [], "not suspended while it ranges")
        life.continuousLocation("a", active: false, at: at(61))
        #expect(life.advance(to: at(71)) == [.suspend(client: "a")])
    }

    @Test func aStoredRecordWithoutTheNewerSettingsReadsThemAsDefaults() throws {
        let old = #"{"relaunchAfterForceQuit":false,"locationBackgroundMode":true}"#
        let options = try JSONDecoder().decode(LaunchOptions.self, from: Data(old.utf8))
        #expect(options == LaunchOptions(relaunchAfterForceQuit: false, locationInBackground: true))
    }

    @Test func theBudgetDefaultsToTenSecondsThenTheClientIsSuspended() {
        var life = lifecycle()
        _ = life.eventQueued(for: "a", reason: .location, at: at(0))
        #expect(life.nextDeadline == at(10))
        #expect(life.advance(to: at(9.9)) == [])
        #expect(life.advance(to: at(10)) == [.suspend(client: "a")])
        #expect(life.apps["a"]!.state == .suspended)
        #expect(life.nextDeadline == nil)
    }

    @Test func theBudgetIsConfigurable() {
        var life = lifecycle { $0.budget = 3 }
        _ = life.eventQueued(for: "a", reason: .visit, at: at(0))
        #expect(life.advance(to: at(3)) == [.suspend(client: "a")])
    }

    @Test func aSuspendedClientIsThawedForItsNextEventWithAFreshBudget() {
        var life = lifecycle()
        _ = life.eventQueued(for: "a", reason: .region, at: at(0))
        _ = life.advance(to: at(10))
        #expect(life.eventQueued(for: "a", reason: .beacon, at: at(50)) == [.thaw(client: "a")])
        #expect(life.apps["a"]!.lastLaunchReason == .beacon)
        #expect(life.nextDeadline == at(60))
    }

    @Test func aClientTheUserStartedIsNeverSuspended() {
        var life = lifecycle()
        life.connected("a", at: at(0))
        #expect(life.apps["a"]!.state == .running)
        #expect(life.eventQueued(for: "a", reason: .region, at: at(1)) == [])
        #expect(life.advance(to: at(1000)) == [])
        #expect(life.apps["a"]!.lastLaunchReason == nil)
    }

    @Test func aBackgroundTaskExtendsTheBudgetAndWarnsBeforeItsEnd() {
        var life = lifecycle()
        _ = life.eventQueued(for: "a", reason: .region, at: at(0))
        let task = life.beginBackgroundTask("a", at: at(2))
        #expect(task != nil)
        #expect(life.advance(to: at(10)) == [])
        #expect(life.nextDeadline == at(175))
        #expect(life.advance(to: at(175)) == [.expirationWarning(client: "a")])
        #expect(life.advance(to: at(176)) == [])
        #expect(life.nextDeadline == at(180))
    }

    @Test func endingTheLastTaskSuspendsAtOnce() {
        var life = lifecycle()
        _ = life.eventQueued(for: "a", reason: .region, at: at(0))
        let first = life.beginBackgroundTask("a", at: at(1))!
        let second = life.beginBackgroundTask("a", at: at(1))!
        #expect(life.endBackgroundTask("a", first, at: at(20)) == [])
        #expect(life.endBackgroundTask("a", second, at: at(30)) == [.suspend(client: "a")])
        #expect(life.apps["a"]!.state == .suspended)
    }

    @Test func endingAnUnknownTaskDoesNothing() {
        var life = lifecycle()
        _ = life.eventQueued(for: "a", reason: .region, at: at(0))
        #expect(life.endBackgroundTask("a", 42, at: at(1)) == [])
        #expect(life.apps["a"]!.state == .background)
    }

    @Test func overrunningTheTaskLimitTerminatesThenKillsAfterTheGrace() {
        var life = lifecycle()
        _ = life.eventQueued(for: "a", reason: .region, at: at(0))
        _ = life.beginBackgroundTask("a", at: at(1))
        _ = life.advance(to: at(175))
        #expect(life.advance(to: at(180)) == [.terminate(client: "a")])
        #expect(life.apps["a"]!.state == .terminating)
        #expect(life.advance(to: at(184)) == [])
        #expect(life.advance(to: at(185)) == [.kill(client: "a")])
        #expect(life.advance(to: at(190)) == [])
    }

    @Test func anEndTheDaemonCausedIsNeitherACrashNorAForceQuit() {
        var life = lifecycle(LaunchOptions(relaunchAfterForceQuit: false))
        _ = life.eventQueued(for: "a", reason: .region, at: at(0))
        _ = life.beginBackgroundTask("a", at: at(1))
        _ = life.advance(to: at(180))
        #expect(life.exited("a", .signaled(15), at: at(181)) == [])
        #expect(life.apps["a"]!.state == .notRunning)
        #expect(life.apps["a"]!.crashes == 0)
        #expect(life.eventQueued(for: "a", reason: .visit, at: at(200)) == [.launch(client: "a", reason: .visit)])
    }

    @Test func anEventDuringTerminationRelaunchesWhenTheProcessIsGone() {
        var life = lifecycle()
        _ = life.eventQueued(for: "a", reason: .region, at: at(0))
        _ = life.disable("a", at: at(1))
        life.enable("a")
        #expect(life.eventQueued(for: "a", reason: .beacon, at: at(2)) == [])
        #expect(life.exited("a", .signaled(15), at: at(3)) == [.launch(client: "a", reason: .beacon)])
    }

    @Test func aForceQuitClientIsRelaunchedOnItsNextEventByDefault() {
        var life = lifecycle()
        life.connected("a", at: at(0))
        #expect(life.exited("a", .signaled(9), at: at(100)) == [])
        #expect(life.apps["a"]!.lastExit == .signaled(9))
        #expect(life.eventQueued(for: "a", reason: .significantChange, at: at(200))
                == [.launch(client: "a", reason: .significantChange)])
    }

    @Test func withRelaunchAfterForceQuitOffAForceQuitClientWaitsForTheUser() {
        var life = lifecycle(LaunchOptions(relaunchAfterForceQuit: false))
        life.connected("a", at: at(0))
        _ = life.exited("a", .signaled(9), at: at(100))
        #expect(life.eventQueued(for: "a", reason: .region, at: at(200)) == [])
        life.connected("a", at: at(300))
        #expect(life.apps["a"]!.state == .running)
        #expect(life.apps["a"]!.forceQuit == false)
    }

    @Test func aCleanExitIsNotAForceQuit() {
        var life = lifecycle(LaunchOptions(relaunchAfterForceQuit: false))
        _ = life.eventQueued(for: "a", reason: .region, at: at(0))
        _ = life.exited("a", .exited(0), at: at(1))
        #expect(life.eventQueued(for: "a", reason: .region, at: at(2)) == [.launch(client: "a", reason: .region)])
    }

    @Test func aDisabledClientIsTerminatedAndNeverLaunched() {
        var life = lifecycle()
        _ = life.eventQueued(for: "a", reason: .region, at: at(0))
        #expect(life.disable("a", at: at(1)) == [.terminate(client: "a")])
        _ = life.exited("a", .signaled(15), at: at(2))
        #expect(life.eventQueued(for: "a", reason: .region, at: at(3)) == [])
        #expect(life.advance(to: at(1000)) == [])
    }

    @Test func theLocationModeKeepsAClientWithContinuousUpdatesRunning() {
        var life = lifecycle(LaunchOptions(locationInBackground: true))
        _ = life.eventQueued(for: "a", reason: .location, at: at(0))
        life.continuousLocation("a", active: true, at: at(1))
        #expect(life.apps["a"]!.usesLocationInBackground)
        #expect(life.nextDeadline == nil)
        #expect(life.advance(to: at(500)) == [])
        life.continuousLocation("a", active: false, at: at(600))
        #expect(life.advance(to: at(610)) == [.suspend(client: "a")])
    }

    @Test func continuousUpdatesWithoutTheLocationModeDoNotKeepAClientRunning() {
        var life = lifecycle()
        _ = life.eventQueued(for: "a", reason: .location, at: at(0))
        life.continuousLocation("a", active: true, at: at(1))
        #expect(life.advance(to: at(10)) == [.suspend(client: "a")])
    }

    @Test func aboveTheSuspendedLimitTheLeastRecentlyUsedIsTerminated() {
        var life = AppLifecycle(settings: { var s = LifecycleSettings(); s.maxSuspended = 2; return s }())
        for (index, client) in ["a", "b", "c"].enumerated() {
            life.register(client)
            _ = life.eventQueued(for: client, reason: .region, at: at(Double(index)))
        }
        #expect(life.advance(to: at(10)) == [.suspend(client: "a")])
        #expect(life.advance(to: at(11)) == [.suspend(client: "b")])
        #expect(life.advance(to: at(12)) == [.suspend(client: "c"), .terminate(client: "a")])
        #expect(life.apps["a"]!.state == .terminating)
    }

    @Test func aClientThatCrashesOnEveryLaunchEntersACrashLoopWithDoublingBackoff() {
        var life = lifecycle()
        var now = 0.0
        for _ in 0..<2 {
            #expect(life.eventQueued(for: "a", reason: .region, at: at(now)) == [.launch(client: "a", reason: .region)])
            _ = life.exited("a", .signaled(11), at: at(now + 1))
            now += 2
        }
        _ = life.eventQueued(for: "a", reason: .region, at: at(now))
        _ = life.exited("a", .signaled(11), at: at(now + 1))
        #expect(life.apps["a"]!.state == .crashLoop)
        #expect(life.apps["a"]!.relaunchAt == at(now + 3))
        #expect(life.eventQueued(for: "a", reason: .visit, at: at(now + 2)) == [])
        #expect(life.nextDeadline == at(now + 3))
        #expect(life.advance(to: at(now + 3)) == [.launch(client: "a", reason: .visit)])
        _ = life.exited("a", .exited(1), at: at(now + 4))
        #expect(life.apps["a"]!.relaunchAt == at(now + 8))
    }

    @Test func theBackoffIsCapped() {
        var life = lifecycle { $0.crashLoopThreshold = 1; $0.maxBackoff = 5 }
        var now = 0.0
        for _ in 0..<6 {
            _ = life.eventQueued(for: "a", reason: .region, at: at(now))
            _ = life.advance(to: at(now))
            _ = life.exited("a", .signaled(6), at: at(now + 0.5))
            now += 400
        }
        #expect(life.apps["a"]!.relaunchAt! - at(now - 400 + 0.5) == 5)
    }

    @Test func aProcessThatLivedPastTheCrashWindowResetsTheCount() {
        var life = lifecycle()
        _ = life.eventQueued(for: "a", reason: .region, at: at(0))
        _ = life.exited("a", .signaled(11), at: at(1))
        _ = life.eventQueued(for: "a", reason: .region, at: at(2))
        _ = life.exited("a", .signaled(11), at: at(100))
        #expect(life.apps["a"]!.crashes == 0)
        #expect(life.apps["a"]!.state == .notRunning)
    }

    @Test func aFailedSpawnCountsAsACrash() {
        var life = lifecycle { $0.crashLoopThreshold = 1 }
        _ = life.eventQueued(for: "a", reason: .region, at: at(0))
        _ = life.launchFailed("a", at: at(0))
        #expect(life.apps["a"]!.state == .crashLoop)
    }

    @Test func aLaunchEndedCleanlyWithoutConnectingCountsAsACrashOneThatConnectedDoesNot() {
        var life = lifecycle { $0.crashLoopThreshold = 2 }
        _ = life.eventQueued(for: "a", reason: .region, at: at(0))
        _ = life.exited("a", .exited(0), at: at(1), connected: true)
        #expect(life.apps["a"]!.crashes == 0)
        for second in [2.0, 4.0] {
            _ = life.eventQueued(for: "a", reason: .region, at: at(second))
            _ = life.exited("a", .exited(0), at: at(second + 1), connected: false)
        }
        #expect(life.apps["a"]!.crashes == 2)
        #expect(life.apps["a"]!.state == .crashLoop)
        #expect(life.apps["a"]!.forceQuit == false, "a clean exit is no force-quit")
    }

    @Test func afterADaemonRestartASuspendedLiveProcessIsThawedAndADeadOneForgotten() {
        var life = lifecycle()
        life.register("b")
        _ = life.eventQueued(for: "a", reason: .region, at: at(0))
        _ = life.eventQueued(for: "b", reason: .region, at: at(0))
        _ = life.advance(to: at(10))
        var restarted = AppLifecycle()
        restarted.restore("a", life.apps["a"]!)
        restarted.restore("b", life.apps["b"]!)
        #expect(restarted.recovered("a", processAlive: true, at: at(100)) == [.thaw(client: "a")])
        #expect(restarted.apps["a"]!.state == .background)
        #expect(restarted.recovered("b", processAlive: false, at: at(100)) == [])
        #expect(restarted.apps["b"]!.state == .notRunning)
        #expect(restarted.advance(to: at(110)) == [.suspend(client: "a")])
    }

    @Test func aTaskCannotBeginForAClientWithoutAProcess() {
        var life = lifecycle()
        #expect(life.beginBackgroundTask("a", at: at(0)) == nil)
        #expect(life.beginBackgroundTask("nobody", at: at(0)) == nil)
    }
}

@Suite struct AppLifecycleRecoveryTests {
    @Test func afterADaemonRestartAClientTheUserStartedThatIsGoneIsRecordedAsEndedCleanlyAsItsConnectionsEndIs() {
        var life = AppLifecycle()
        life.register("a")
        life.connected("a", at: at(0))
        #expect(life.recovered("a", processAlive: true, at: at(50)) == [])
        #expect(life.apps["a"]!.state == .running)
        #expect(life.recovered("a", processAlive: false, at: at(60)) == [])
        #expect(life.apps["a"]!.state == .notRunning)
        #expect(life.apps["a"]!.lastExit == .exited(0))
        #expect(life.apps["a"]!.forceQuit == false)
    }
}
