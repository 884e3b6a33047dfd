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
