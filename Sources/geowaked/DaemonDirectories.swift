#if canImport(Glibc)
import Glibc
#endif
import GeoWakeDaemon

/// The socket's and the store's directories, made before the daemon opens anything so that a failure names the
/// option, the directory and the cause. In system mode the socket's directory is 0755: the socket in it is 0666 for
/// every user, and a 0700 directory would keep them out (systemd's RuntimeDirectory= makes it 0755 too). Everything
/// else is the daemon's alone, 0700.
enum DaemonDirectories {
    static func prepare(_ paths: DaemonPaths, system: Bool) throws(StartupError) {
        // One byte of sun_path is kept for the temporary name the socket is bound under before it is renamed into place.
        let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1
        guard paths.socket.utf8.count < capacity else {
            throw StartupError(.usage, "--socket \(paths.socket): longer than \(capacity - 1) bytes")
        }
        try make(parent(of: paths.socket), mode: system ? 0o755 : 0o700, for: "--socket \(paths.socket)")
        try make(parent(of: paths.state), mode: 0o700, for: "--state \(paths.state)")
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `mkdir -p`: the missing directories get `mode`; existing ones are left as they are.
    private static func make(_ directory: String, mode: mode_t, for option: String) throws(StartupError) {
        var status = stat()
        if stat(directory, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw StartupError(.cannotCreate, "\(option): cannot create its directory: \(directory) is not a directory")
            }
            return
        }
        let parent = parent(of: directory)
        if parent != directory { try make(parent, mode: mode, for: option) }
        // mkdir applies the umask; the mode is what the directory must have.
        guard mkdir(directory, mode) == 0 || errno == EEXIST else {
            let code = errno
            throw StartupError(StartupError.kind(errno: code, creating: true),
                               "\(option): cannot create its directory \(directory): \(String(cString: strerror(code)))")
        }
        chmod(directory, mode)
    }
}
