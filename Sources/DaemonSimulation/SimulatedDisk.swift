import CSimulatedDisk
import GeoWakeDaemon
import Glibc
import GRDB
import Synchronization

/// What a power cut can leave of the store. The store is a real SQLite file in WAL mode; SQLite syncs the WAL only
/// where the daemon asks it to (once a loop turn for that turn's commits with `full`; with `normal`, for requests,
/// app states and the epoch's commit, and before a checkpoint). The disk learns of every sync through a wrapping VFS, and a power cut keeps what was synced
/// plus any prefix of the later commits, as the kernel may have written some of them back: recovery stops at the
/// first frame whose checksum chain breaks, so the survivors are always whole commits in order.
enum SimulatedDisk {
    /// Per WAL path: the end of the valid frames, with their salt, at its last sync.
    private static let synced = Mutex<[String: WALFile.Prefix]>([:])

    static func install() {
        _ = simulated_disk_install { path in
            guard let path, case let name = String(cString: path), name.hasSuffix("-wal") else { return }
            SimulatedDisk.synced.withLock { synced in
                synced[name] = WALFile.validPrefix(of: name, after: synced[name])
            }
        }
    }

    /// Copies the store's files as the machine loses power, cut to what may survive; `pick` chooses among the
    /// commits that may or may not have reached the disk (0: none of them).
    typealias Files = (database: [UInt8], wal: [UInt8]?, lostCommits: Int)

    static func powerCut(store path: String, pick: (Int) -> Int) -> Files {
        let database = readFile(path) ?? []
        let walPath = path + "-wal"
        guard var wal = readFile(walPath) else { return (database, nil, 0) }
        let current = WALFile.scan(wal)
        let syncedPrefix = synced.withLock { $0[walPath] }
        let floor = syncedPrefix.flatMap { $0.salt == current.salt ? $0.end : nil } ?? WALFile.headerSize
        let candidates = current.commitEnds.filter { $0 > floor }
        let kept = pick(candidates.count + 1)
        let end = kept == 0 ? floor : candidates[kept - 1]
        wal = Array(wal.prefix(end))
        return (database, wal, candidates.count - kept)
    }

    static func restore(store path: String, _ files: Files) {
        writeFile(path, files.database)
        if let wal = files.wal { writeFile(path + "-wal", wal) } else { unlink(path + "-wal") }
        synced.withLock { $0[path + "-wal"] = nil }
    }

    static func forget(store path: String) {
        synced.withLock { $0[path + "-wal"] = nil }
    }

    static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            bytes += chunk[..<n]
        }
        return bytes
    }

    static func writeFile(_ path: String, _ bytes: [UInt8]) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    }
}

/// SQLite's WAL layout: a 32-byte header (page size at 8, salts at 16), then frames of a 24-byte header (the
/// database size after the commit at 4, nonzero only on a commit's last frame; the salts again at 8) and a page.
enum WALFile {
    static let headerSize = 32

    struct Prefix: Equatable {
        var salt: UInt64
        var end: Int
    }

    struct Scan {
        var salt: UInt64
        /// The byte offset after each commit, in order.
        var commitEnds: [Int]
    }

    /// The end of the last whole commit of the file's current generation, reading only frame headers, and only
    /// those after `known` when the generation is the same (under `full` a sync comes every loop turn).
    static func validPrefix(of path: String, after known: Prefix?) -> Prefix? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: headerSize)
        guard pread(fd, &header, headerSize, 0) == headerSize else { return nil }
        let pageSize = Int(bigEndian32(header, 8))
        let salt = bigEndian64(header, 16)
        var end = known.flatMap { $0.salt == salt ? $0.end : nil } ?? headerSize
        var offset = end
        var frame = [UInt8](repeating: 0, count: 24)
        while pageSize > 0, pread(fd, &frame, 24, off_t(offset)) == 24, bigEndian64(frame, 8) == salt {
            var last = UInt8(0)
            guard pread(fd, &last, 1, off_t(offset + 24 + pageSize - 1)) == 1 else { break }
            offset += 24 + pageSize
            if bigEndian32(frame, 4) != 0 { end = offset }
        }
        return Prefix(salt: salt, end: end)
    }

    /// The commits of the header's generation; older frames beyond them carry another salt.
    static func scan(_ bytes: [UInt8]) -> Scan {
        guard bytes.count >= headerSize else { return Scan(salt: 0, commitEnds: []) }
        let pageSize = Int(bigEndian32(bytes, 8))
        let salt = bigEndian64(bytes, 16)
        var ends: [Int] = []
        var offset = headerSize
        while pageSize > 0, offset + 24 + pageSize <= bytes.count, bigEndian64(bytes, offset + 8) == salt {
            let commitSize = bigEndian32(bytes, offset + 4)
            offset += 24 + pageSize
            if commitSize != 0 { ends.append(offset) }
        }
        return Scan(salt: salt, commitEnds: ends)
    }

    private static func bigEndian32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func bigEndian64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        bytes[at..<at + 8].reduce(0) { $0 << 8 | UInt64($1) }
    }
}

extension DaemonStore {
    /// Letting the daemon go closes its store, and SQLite checkpoints the WAL into the database as it closes, which a
    /// killed process never does: after this, the close leaves every commit in the WAL for the next start to recover.
    func closeAsKilled() {
        queue.inDatabase { db in _ = simulated_disk_close_without_checkpoint(UnsafeMutableRawPointer(db.sqliteConnection)) }
    }
}
