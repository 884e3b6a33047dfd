#if canImport(Glibc)
import Glibc
#endif

/// The threads a worker does not run itself: libnats's (for each connection a reader and a flusher, for each
/// asynchronous subscription a deliverer, the library's timer and its collector of destroyed messages) and the
/// lease renewal's. They wake for nearly every message, and each woken thread preempted the worker's thread on
/// the core they share: 21,000–36,000 thread switches a second at 10,000 devices, a third of the samples in the
/// kernel.
enum HelperThreads {
    /// `SCHED_BATCH` (Linux): a thread of this policy that wakes does not preempt the running one.
    static let batchPolicy: Int32 = 3

    /// Makes every other thread of the process a batch thread, the calling one left as it is: the helpers then
    /// run when the caller waits (for input) or has used its time slice, and take several messages' work at a
    /// time. Threads started later inherit the policy from the thread that starts them (the library's reconnects
    /// start from its own threads), or are made batch threads at the next call. Needs no privilege; a thread that
    /// refuses is left as it is.
    static func yieldToCaller() {
        guard let caller = callingThread else { return }
        var parameters = sched_param(sched_priority: 0)
        forEachThread { thread in
            if thread != caller { _ = sched_setscheduler(thread, batchPolicy, &parameters) }
        }
    }

    /// Calls `body` with the id of each thread of the process (`/proc/self/task` lists them).
    static func forEachThread(_ body: (pid_t) -> Void) {
        guard let tasks = opendir("/proc/self/task") else { return }
        defer { closedir(tasks) }
        while let entry = readdir(tasks) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let thread = pid_t(name) { body(thread) }
        }
    }

    /// The calling thread's id: `/proc/thread-self` links to `PID/task/TID` (Swift's Glibc has no `gettid`).
    static var callingThread: pid_t? {
        var link = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &link, link.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: link[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .split(separator: "/").last.flatMap { pid_t($0) }
    }
}
