import Glibc

/// The program a client registers to be launched with: an absolute path and its arguments.
public struct LaunchCommand: Hashable, Sendable, Codable {
    /// `argv`; the first element is the program's absolute path.
    public var arguments: [String]

    public init(_ arguments: [String]) {
        self.arguments = arguments
    }

    public var executable: String { arguments.first ?? "" }

    /// Checks the command as a careful setuid launcher would before running it for `owner`:
    /// the path is absolute; the symlink-resolved file is a regular file with an execute bit; and the file and
    /// every directory above it are owned by root or `owner` and not writable by group or others. A root-owned
    /// sticky directory (`/tmp`) is accepted though world-writable: only an entry's owner may rename or remove it.
    /// Anything else would let another user swap the program that runs with `owner`'s rights.
    public func validate(for owner: uid_t) throws(LaunchCommandError) {
        guard let path = arguments.first else { throw .noArguments }
        guard path.hasPrefix("/") else { throw .notAbsolute(path) }
        guard let resolvedPointer = realpath(path, nil) else { throw .missing(path) }
        let resolved = String(cString: resolvedPointer)
        free(resolvedPointer)

        let file = try Self.status(of: resolved)
        guard file.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile(resolved) }
        guard file.st_mode & 0o111 != 0 else { throw .notExecutable(resolved) }
        try Self.checkOwnership(resolved, file, owner: owner, stickyAllowed: false)

        var directory = resolved
        repeat {
            directory = Self.parent(of: directory)
            let status = try Self.status(of: directory)
            guard status.st_mode & S_IFMT == S_IFDIR else { throw .notDirectory(directory) }
            try Self.checkOwnership(directory, status, owner: owner, stickyAllowed: true)
        } while directory != "/"
    }

    static func status(of path: String) throws(LaunchCommandError) -> stat {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw .missing(path) }
        return status
    }

    static func checkOwnership(_ path: String, _ status: stat, owner: uid_t, stickyAllowed: Bool) throws(LaunchCommandError) {
        guard status.st_uid == 0 || status.st_uid == owner else {
            throw .ownedByAnotherUser(path: path, owner: status.st_uid)
        }
        let rootSticky = stickyAllowed && status.st_uid == 0 && status.st_mode & S_ISVTX != 0
        if status.st_mode & 0o022 != 0 && !rootSticky {
            throw .writableByOthers(path: path, mode: status.st_mode)
        }
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
