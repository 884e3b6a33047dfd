#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` on a new detached thread. Sources block in poll() and libgps calls, which must not
/// occupy a thread of Swift's cooperative pool.
func startWorkerThread(_ body: @escaping @Sendable () -> Void) {
    final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(&thread, nil, { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
    }, box)
    guard status == 0 else { fatalError("pthread_create failed: \(String(cString: strerror(status)))") }
    pthread_detach(thread)
}
