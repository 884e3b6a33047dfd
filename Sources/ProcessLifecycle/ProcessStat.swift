import Glibc

/// The fields of `/proc/PID/stat` the launcher needs: the scheduler state letter (`T` when stopped,
/// `Z` a zombie) and the start time in clock ticks since boot, which together with the pid names one process.
public struct ProcessStat: Hashable, Sendable {
    public var state: Character
    public var startTime: UInt64

    /// Reads `/proc/PID/stat`; nil when no such process exists (any more).
    public static func read(_ pid: pid_t) -> ProcessStat? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return parse(buffer[..<count])
    }

    /// The command name (field 2) may contain spaces and parentheses, so fields are counted after its last `)`.
    static func parse(_ bytes: ArraySlice<UInt8>) -> ProcessStat? {
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
        // fields[0] is field 3 (state); field 22 (starttime) is fields[19].
        guard fields.count > 19, let state = fields[0].first,
              let start = UInt64(String(decoding: fields[19], as: UTF8.self)) else { return nil }
        return ProcessStat(state: Character(Unicode.Scalar(state)), startTime: start)
    }
}
