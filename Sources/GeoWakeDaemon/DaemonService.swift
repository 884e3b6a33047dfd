import Foundation
import Logging
import ServiceLifecycle

/// The daemon as a swift-service-lifecycle service: its poll loop runs on a thread of its own, and a graceful
/// shutdown (SIGTERM, SIGINT) ends the loop after its current turn, so no transaction is cut short.
struct DaemonService: Service {
    private final class Loop: @unchecked Sendable {
        let daemon: Daemon
        init(_ daemon: Daemon) { self.daemon = daemon }
    }

    private let loop: Loop

    init(_ daemon: Daemon) { loop = Loop(daemon) }

    func run() async throws {
        let loop = self.loop
        try await withGracefulShutdownHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                Thread.detachNewThread {
                    do {
                        try loop.daemon.run()
                        continuation.resume()
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
        } onGracefulShutdown: {
            loop.daemon.stop()
        }
    }
}

extension Daemon {
    /// Serves until SIGTERM or SIGINT, then shuts down gracefully.
    public func serve() async throws {
        // A parent may have spawned us with these blocked (seen under the test runner); SIGTERM must reach us.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGTERM)
        sigaddset(&stopSignals, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
        let group = ServiceGroup(configuration: .init(services: [DaemonService(self)],
                                                      gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
