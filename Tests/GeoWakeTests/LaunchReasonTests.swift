@testable import GeoWake
import Testing

/// One launch reason type (GeoWakeProtocol) for the daemon that sets GEOWAKE_LAUNCH_REASON and the library that
/// reads it: every known reason reads back as itself, an unknown one is kept as it came.
@Suite struct LaunchReasonTests {
    @Test(arguments: LaunchReason.known)
    func everyReasonTheDaemonSetsReadsBackAsItself(_ reason: LaunchReason) {
        #expect(LaunchReason(environment: ["GEOWAKE_LAUNCH_REASON": reason.rawValue]) == reason)
    }

    @Test func aReasonFromANewerDaemonIsKeptAndNoneMeansStartedByHand() {
        #expect(LaunchReason(environment: ["GEOWAKE_LAUNCH_REASON": "processing"]) == .other("processing"))
        #expect(LaunchReason(environment: ["GEOWAKE_LAUNCH_REASON": ""]) == nil)
        #expect(LaunchReason.significantChange.rawValue == "significant-change")
    }

    @Test func everyDocumentedErrorCodeReadsBackAsItselfAndAnUnknownOneIsKept() {
        for code in ErrorCode.known { #expect(ErrorCode(rawValue: code.rawValue) == code) }
        #expect(ErrorCode(rawValue: "somethingNew") == .other("somethingNew"))
        #expect(ErrorCode.known.count == Set(ErrorCode.known.map(\.rawValue)).count)
    }
}
