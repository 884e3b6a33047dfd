#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Foundation
import GeoWake

/// The daemon commands' shared part: `--socket`, one request over the library's connection, the result
/// printed as JSON lines. The commands are synchronous (the CLI's `main` is), so the call runs in a task
/// while this thread waits for it.
struct DaemonOptions: ParsableArguments {
    @Option(name: .long, help: "geowaked's socket (default: $GEOWAKE_SOCKET, then the user daemon's, then the system daemon's).")
    var socket: String?

    func call(_ op: String, _ fields: [String: JSONValue] = [:]) throws -> JSONValue {
        let resolution = SocketPath.resolution()
        let path = socket ?? resolution.path
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                let connection = try await DaemonConnection(path: path, timeout: 5)
                outcome.set(.success(try await connection.request(op, fields, timeout: 5)))
                connection.close()
            } catch {
                outcome.set(.failure(error))
            }
            done.signal()
        }
        done.wait()
        do {
            return try outcome.get()
        } catch let error as GeoWakeError {
            throw CommandError((socket == nil ? SocketPath.explain(error, tried: resolution.tried) : error).description)
        }
    }
}

private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<JSONValue, any Error> = .failure(GeoWakeError.closed)

    func set(_ value: Result<JSONValue, any Error>) { lock.withLock { result = value } }
    func get() throws -> JSONValue { try lock.withLock { try result.get() } }
}

/// One JSON value per line on standard output.
func printLines(_ values: [JSONValue]) {
    var bytes: [UInt8] = []
    for value in values {
        bytes += value.line
        bytes.append(UInt8(ascii: "\n"))
    }
    _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}
