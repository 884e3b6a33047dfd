#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// Runs `body` on a new detached thread: the one way the package starts a thread (gpsd and serial sources, the
/// daemon's beacon scanners, the library's socket reader). They block in poll(), read() and libgps calls, which must
/// not occupy a thread of Swift's cooperative pool. A process out of threads (a process or system limit) runs it on
/// a dispatch worker instead, once one is free, rather than stopping.
package func startWorkerThread(_ body: @escaping @Sendable () -> Void) {
    if !startDetachedThread(body) { DispatchQueue.global().async(execute: body) }
}

/// Runs `body` on a new detached thread; false, without running it, when no thread can be made.
package func startDetachedThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body))
    var thread = pthread_t()
    let status = pthread_create(&thread, nil, { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
    }, box.toOpaque())
    guard status == 0 else {
        box.release()
        return false
    }
    pthread_detach(thread)
    return true
}

/// Runs `first` and `second` at once, one on the calling thread and one on a dispatch worker, and returns when both
/// are done: for two pieces of work that touch nothing in common (the daemon's commit and its index). With no
/// worker free, dispatch runs both on the calling thread, one after the other.
package func atOnce(_ first: () -> Void, _ second: () -> Void) {
    withoutActuallyEscaping(first) { first in
        withoutActuallyEscaping(second) { second in
            nonisolated(unsafe) let work = (first, second)
            DispatchQueue.concurrentPerform(iterations: 2) { $0 == 0 ? work.0() : work.1() }
        }
    }
}
