#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import GeoWakeDaemon
import Traces

/// geowaked's exit statuses, sysexits(3)'s: a service manager or a script can tell a bad option from a missing
/// file, a permission or another daemon holding the store.
enum ExitStatus: Int32 {
    case usage = 64, dataError = 65, noInput = 66, software = 70, osError = 71, cannotCreate = 73, ioError = 74
    case tempFail = 75, noPermission = 77

    init(_ kind: StartupError.Kind) {
        switch kind {
        case .usage: self = .usage
        case .badData: self = .dataError
        case .noInput: self = .noInput
        case .cannotCreate: self = .cannotCreate
        case .noPermission: self = .noPermission
        case .inUse: self = .tempFail
        case .ioError: self = .ioError
        case .system: self = .osError
        }
    }
}

/// An error that ends geowaked, told as one line naming what and where, with its exit status.
struct DaemonFailure: Error {
    var status: ExitStatus
    var message: String

    /// An error of the daemon's setup. `trace` and `beaconTrace` are the files of `--source trace:…` and
    /// `--beacon-source trace:…`: a trace that cannot be used is missing, forbidden or not a trace, which only the
    /// file itself tells.
    init(_ error: any Error, trace: String?, beaconTrace: String?) {
        switch error {
        case let error as StartupError:
            self.init(status: ExitStatus(error.kind), message: error.description)
        case let error as TraceError:
            self.init(status: Self.status(ofUnusable: error.file ?? trace), message: error.description)
        case let error as ProtocolError where error.message.hasPrefix("--beacon-source: "):
            self.init(status: Self.status(ofUnusable: beaconTrace), message: error.message)
        case let error as ProtocolError:
            // What the daemon's setup refuses before touching any file: the form of --source, --beacon-source, rules.
            self.init(status: .usage, message: error.message)
        default:
            self.init(status: .software, message: "\(error)")
        }
    }

    /// An error that ended the daemon once it was set up: the socket it cannot listen on, or a failure of its own
    /// (a failed poll, a store it can no longer write), which no option of the user's caused.
    init(serving error: any Error) {
        switch error {
        case let error as StartupError: self.init(status: ExitStatus(error.kind), message: error.description)
        case let error as ProtocolError: self.init(status: .software, message: error.message)
        default: self.init(status: .software, message: "\(error)")
        }
    }

    init(status: ExitStatus, message: String) {
        self.status = status
        self.message = message.split(separator: "\n").first.map(String.init) ?? message
    }

    private static func status(ofUnusable path: String?) -> ExitStatus {
        guard let path, access(path, R_OK) != 0 else { return .dataError }
        return ExitStatus(StartupError.kind(errno: errno, creating: false))
    }
}
