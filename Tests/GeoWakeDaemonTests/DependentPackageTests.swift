import Foundation
import Testing

/// A subscriber's own package, depending on GeoWake as README says (with `traits: []`): it resolves none of the
/// daemon's dependencies nor the documentation plugin, builds with `import GeoWake` alone, and hears a real daemon.
@Suite(.serialized) struct DependentPackageTests {
    /// The package's name is its clone's directory name (`main`, a worktree's name, CI's folder).
    static let packageName = DaemonProcess.root.split(separator: "/").last.map(String.init) ?? "geowake"

    static let manifest = """
        // swift-tools-version: 6.1
        import PackageDescription

        let package = Package(
            name: "VanTracker",
            dependencies: [.package(path: "\(DaemonProcess.root)", traits: [])],
            targets: [.executableTarget(name: "VanTracker", dependencies: [.product(name: "GeoWake", package: "\(packageName)")])]
        )
        """

    static let program = """
        import GeoWake

        @main
        struct VanTracker {
            static func main() async throws {
                let manager = try await LocationManager(clientID: "org.example.van")
                do {
                    try await manager.monitor(Region.circle(id: "depot", latitude: 52.5, longitude: 13.4, radius: 100))
                } catch GeoWakeError.rejected(_, .duplicateRegion, _) {}
                for try await event in manager.events {
                    if case .enter(let region) = event.kind, let time = event.fix?.time {
                        print("entered \\(region.id) at \\(time)")
                        break
                    }
                }
                manager.stop()
            }
        }
        """

    static func run(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test func aPackageDependingOnGeoWakeAloneResolvesNoDaemonDependencyBuildsAndHearsADaemon() throws {
        let daemon = DaemonProcess()
        let package = daemon.directory + "/VanTracker"
        try FileManager.default.createDirectory(atPath: package + "/Sources/VanTracker", withIntermediateDirectories: true)
        try Data(Self.manifest.utf8).write(to: URL(fileURLWithPath: package + "/Package.swift"))
        try Data(Self.program.utf8).write(to: URL(fileURLWithPath: package + "/Sources/VanTracker/VanTracker.swift"))

        let dependencies = try Self.run(["swift", "package", "show-dependencies", "--format", "flatlist"], in: package)
        #expect(dependencies.status == 0, "\(dependencies.output)")
        for name in ["grdb", "swift-service-lifecycle", "swift-argument-parser", "swift-log", "swift-async-algorithms",
                     "swift-docc-plugin", "swift-docc-symbolkit"] {
            #expect(!dependencies.output.lowercased().contains(name), "\(name) is resolved: \(dependencies.output)")
        }
        let build = try Self.run(["swift", "build"], in: package)
        try #require(build.status == 0, "\(build.output)")

        let trace = StraightLineTrace(points: (0..<40).map { ($0, 0.0) })
        try daemon.start(trace: trace.write(to: daemon.directory), speed: 4)
        let heard = try Self.run([package + "/.build/debug/VanTracker"], in: package, environment: ["GEOWAKE_SOCKET": daemon.socket])
        #expect(heard.status == 0, "\(heard.output)")
        #expect(heard.output.hasPrefix("entered depot at 2026-01-01T00:00:00.000Z"), "\(heard.output)")
    }
}
