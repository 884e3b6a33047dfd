import Foundation
import TestSupport

/// The built `geowake` and the repository root, as the maps tests run them.
enum CommandRunner {
    static let root = packageRoot
    static let geowake = builtExecutable("geowake")

    /// Runs `executable` in the repository root; returns its exit status, standard output and standard error.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both at once: a full stderr pipe would otherwise block the child while we wait on stdout.
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errorData = err.fileHandleForReading.readDataToEndOfFile() }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }

    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "geowake-maps-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
