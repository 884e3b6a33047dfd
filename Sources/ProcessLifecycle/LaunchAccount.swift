import Glibc

/// The user a client runs as in system mode: the uid and gid that registered it, with exactly the
/// supplementary groups `/etc/group` (or NSS) gives that user, looked up before the fork because the
/// lookup is not safe in a forked child.
public struct LaunchAccount: Hashable, Sendable {
    public var uid: uid_t
    public var gid: gid_t
    public var name: String
    public var home: String
    public var groups: [gid_t]

    /// Looks up `uid`'s name and home; the primary group is the registering gid, which need not be the
    /// passwd entry's.
    public static func lookUp(uid: uid_t, gid: gid_t) throws(LaunchError) -> LaunchAccount {
        var entry = passwd()
        var buffer = [CChar](repeating: 0, count: 4096)
        var result: UnsafeMutablePointer<passwd>? = nil
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil else {
            throw .unknownUser(uid)
        }
        let name = String(cString: entry.pw_name)
        let home = String(cString: entry.pw_dir)
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, gid, &groups, &count) < 0 {
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(name, gid, &groups, &count) >= 0 else { throw .unknownUser(uid) }
        }
        return LaunchAccount(uid: uid, gid: gid, name: name, home: home, groups: Array(groups.prefix(Int(count))))
    }
}
