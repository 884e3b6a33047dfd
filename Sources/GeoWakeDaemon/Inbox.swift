import Foundation
import Synchronization

/// The queue between a source's threads and the loop, with its wake-up pipe.
final class Inbox<Item: Sendable>: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32
    private let items = Mutex<[Item]>([])

    init() {
        var ends: [Int32] = [-1, -1]
        pipe(&ends)
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        Glibc.close(readEnd)
        Glibc.close(writeEnd)
    }

    func push(_ item: Item) {
        let wasEmpty = items.withLock { items in
            items.append(item)
            return items.count == 1
        }
        var byte: UInt8 = 1
        if wasEmpty { _ = write(writeEnd, &byte, 1) }
    }

    func take() -> [Item] {
        var drain = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &drain, drain.count) > 0 {}
        return items.withLock { items in
            defer { items.removeAll() }
            return items
        }
    }
}
