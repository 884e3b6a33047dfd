#if canImport(Glibc)
import Glibc
#endif

/// Why the daemon cannot start or go on: one line naming the path or option and the cause, and the kind of
/// failure, which `geowaked` turns into its exit status (sysexits).
public struct StartupError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable {
        /// A bad option value.
        case usage
        /// An input that is there but unusable: not a trace, not a SQLite store.
        case badData
        /// An input that does not exist.
        case noInput
        /// A file, directory or socket that cannot be made.
        case cannotCreate
        case noPermission
        /// A resource another process holds (the store, while another daemon runs).
        case inUse
        case ioError
        /// Any other failed system call.
        case system
    }

    public var kind: Kind
    public var description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// What a failed system call on a path means: missing, forbidden, something in the way, or else the system's.
    public static func kind(errno code: Int32, creating: Bool) -> Kind {
        switch code {
        case EACCES, EPERM: .noPermission
        case ENOENT: creating ? .cannotCreate : .noInput
        case ENOTDIR, EEXIST, EISDIR, EROFS, ENAMETOOLONG, ELOOP: creating ? .cannotCreate : .badData
        case EIO, ENOSPC, EDQUOT: .ioError
        default: .system
        }
    }
}
