@testable import GeoWake
import ProcessLifecycle
import Testing

/// The library and the daemon each have a launch reason type (the library may not depend on the daemon's
/// internals); the values in GEOWAKE_LAUNCH_REASON are the daemon's raw values, and the library must know them all.
@Suite struct LaunchReasonTests {
    @Test(arguments: ProcessLifecycle.LaunchReason.allCases)
    func everyReasonTheDaemonSetsIsAKnownReasonToTheLibrary(_ reason: ProcessLifecycle.LaunchReason) {
        let read = GeoWake.LaunchReason(environment: ["GEOWAKE_LAUNCH_REASON": reason.rawValue])
        #expect(read != nil)
        if case .other(let value)? = read { Issue.record("the library does not know \(value)") }
    }
}
