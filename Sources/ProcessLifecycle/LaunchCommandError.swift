/// Why a registered launch command is refused; each names the path it is about.
public enum LaunchCommandError: Error, Equatable, CustomStringConvertible {
    case noArguments
    case notAbsolute(String)
    case missing(String)
    case notRegularFile(String)
    case notExecutable(String)
    case notDirectory(String)
    case writableByOthers(path: String, mode: UInt32)
    case ownedByAnotherUser(path: String, owner: UInt32)

    public var description: String {
        switch self {
        case .noArguments:
            return "launch command: no program given"
        case .notAbsolute(let path):
            return "launch command \(path): the path must be absolute"
        case .missing(let path):
            return "launch command: \(path) does not exist"
        case .notRegularFile(let path):
            return "launch command \(path): not a regular file"
        case .notExecutable(let path):
            return "launch command \(path): not executable"
        case .notDirectory(let path):
            return "launch command: \(path) is not a directory"
        case .writableByOthers(let path, let mode):
            return "launch command: \(path) is writable by group or others (mode \(String(mode & 0o7777, radix: 8)))"
        case .ownedByAnotherUser(let path, let owner):
            return "launch command: \(path) is owned by uid \(owner), neither root nor the registering user"
        }
    }
}
