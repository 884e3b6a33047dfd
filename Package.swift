// swift-tools-version: 6.1
import PackageDescription

// The daemon's and the command line's package dependencies are behind the default trait `Tools`: a subscriber that
// depends on the GeoWake library with `traits: []` resolves and builds none of them.
let tools: TargetDependencyCondition? = .when(traits: ["Tools"])

let package = Package(
    name: "geowake",
    products: [
        .executable(name: "geowake", targets: ["geowake"]),
        .library(name: "GeoWakeCore", targets: ["GeoWakeCore"]),
        .library(name: "Traces", targets: ["Traces"]),
        .library(name: "RegionIndex", targets: ["RegionIndex"]),
        .library(name: "Regions", targets: ["Regions"]),
        .library(name: "Geofencing", targets: ["Geofencing"]),
        .library(name: "LocationServices", targets: ["LocationServices"]),
        .library(name: "GPSD", targets: ["GPSD"]),
        .library(name: "JSONLines", targets: ["JSONLines"]),
        .library(name: "Beacons", targets: ["Beacons"]),
        .library(name: "Maps", targets: ["Maps"]),
        .library(name: "ProcessLifecycle", targets: ["ProcessLifecycle"]),
        .library(name: "GeoWakeDaemon", targets: ["GeoWakeDaemon"]),
        .library(name: "GeoWake", targets: ["GeoWake"]),
        .executable(name: "geowaked", targets: ["geowaked"]),
        .executable(name: "geowake-simulate", targets: ["geowake-simulate"]),
        .executable(name: "geowake-example", targets: ["ParcelTracker"]),
    ],
    traits: [
        .trait(name: "Tools", description: "geowaked, geowake and their dependencies (GRDB, swift-log, swift-service-lifecycle, swift-argument-parser)"),
        .default(enabledTraits: ["Tools"]),
    ],
    dependencies: [
        // `swift package generate-documentation --target GeoWake` (the DocC catalog in Sources/GeoWake/GeoWake.docc).
        // No target uses it, so a package depending on this one does not resolve it (DependentPackageTests).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The daemon's store and logs.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .target(name: "GeoWakeCore"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "FileBytes", dependencies: ["CZlib"]),
        // The JSON tokenizer of the GeoJSON reader and of the gpsd JSON and beacon trace readers.
        .target(name: "JSONText"),
        .target(name: "Traces", dependencies: ["GeoWakeCore", "FileBytes", "JSONText", "CIntrinsics"]),
        .systemLibrary(name: "CGEOS", path: "Sources/CGEOS", providers: [.apt(["libgeos-dev"])]),
        .systemLibrary(name: "CLibGPS", path: "Sources/CLibGPS", providers: [.apt(["libgps-dev"])]),
        .systemLibrary(name: "CNATS", path: "Sources/CNATS", providers: [.apt(["libnats-dev"])]),
        .target(name: "CIntrinsics"),
        // The spatial index (store, grid, tree, containment); the regions files (GeoJSON, validation with GEOS,
        // loading) that fill it; the region monitor, which needs only the index's query protocol.
        .target(name: "RegionIndex", dependencies: ["GeoWakeCore", "CIntrinsics"]),
        .target(name: "Regions", dependencies: ["GeoWakeCore", "RegionIndex", "JSONText", "CGEOS", "FileBytes"]),
        .target(name: "Geofencing", dependencies: ["GeoWakeCore", "RegionIndex", "Regions"]),
        .target(name: "LocationServices", dependencies: ["GeoWakeCore"]),
        // JSON-lines output (fix, region event and service event lines), shared by the CLI and the daemon.
        .target(name: "JSONLines", dependencies: ["GeoWakeCore", "LocationServices"]),
        .target(name: "Beacons", dependencies: ["GeoWakeCore", "JSONLines", "GeoWakeProtocol"]),
        .target(name: "GPSD", dependencies: ["GeoWakeCore", "Traces", "CLibGPS"]),
        // The wire protocol as types, for the daemon and the library: read with JSONText, written with JSONLines' writer.
        .target(name: "GeoWakeProtocol", dependencies: ["GeoWakeCore", "JSONText", "JSONLines"]),
        .target(name: "ProcessLifecycle", dependencies: ["GeoWakeCore", "GeoWakeProtocol"]),
        .target(name: "Maps", dependencies: ["GeoWakeCore"]),
        .target(name: "TerminalProgress"),
        // Fleets: many devices' fixes from NATS JetStream through the same services, events back into JetStream.
        .target(name: "Fleet", dependencies: [
            "GeoWakeCore", "Traces", "Regions", "RegionIndex", "Geofencing", "LocationServices", "JSONText", "JSONLines", "CNATS",
        ]),
        .executableTarget(
            name: "geowake",
            dependencies: [
                "GeoWakeCore", "Traces", "RegionIndex", "Regions", "Geofencing", "LocationServices", "GPSD", "JSONLines",
                "Beacons", "Maps", "Fleet",
                "TerminalProgress", "GeoWake",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: tools),
            ]
        ),
        // What several test targets need: package root, temporary directories, seeded random numbers.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Opening a client's region file with the client's permissions (setfsuid), for a daemon running as root.
        .target(name: "CPeerFiles"),
        // The daemon: store, socket server, dispatcher; the executable only parses its options.
        .target(
            name: "GeoWakeDaemon",
            dependencies: [
                "GeoWakeCore", "Traces", "RegionIndex", "Regions", "Geofencing", "LocationServices", "GPSD", "JSONLines",
                "CPeerFiles", "ProcessLifecycle", "Beacons", "FileBytes", "GeoWakeProtocol", "JSONText",
                .product(name: "GRDB", package: "GRDB.swift", condition: tools),
                .product(name: "GRDBSQLite", package: "GRDB.swift", condition: tools),
                .product(name: "Logging", package: "swift-log", condition: tools),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: tools),
            ]
        ),
        // The daemon's deterministic simulation: the real daemon turn by turn on a simulated clock, process table
        // and disk (a wrapping SQLite VFS that learns what was synced), over seeded schedules of faults.
        .target(name: "CSimulatedDisk", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(
            name: "DaemonSimulation",
            dependencies: [
                "GeoWakeDaemon", "GeoWakeCore", "GeoWakeProtocol", "Geofencing", "JSONLines", "LocationServices", "RegionIndex",
                "Regions", "Traces", "ProcessLifecycle", "CSimulatedDisk",
                .product(name: "GRDB", package: "GRDB.swift", condition: tools),
                .product(name: "Logging", package: "swift-log", condition: tools),
            ]
        ),
        .executableTarget(
            name: "geowake-simulate",
            dependencies: ["DaemonSimulation", .product(name: "ArgumentParser", package: "swift-argument-parser", condition: tools)]
        ),
        .testTarget(name: "DaemonSimulationTests", dependencies: ["DaemonSimulation"]),
        .executableTarget(
            name: "geowaked",
            dependencies: ["GeoWakeDaemon", "Geofencing", "ProcessLifecycle", "Traces", "CMalloc", .product(name: "ArgumentParser", package: "swift-argument-parser", condition: tools)]
        ),
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        .testTarget(name: "GeoWakeDaemonTests",
                    dependencies: ["TestSupport", "GPSDTestSupport", "GeoWakeDaemon", "geowaked", "geowake", "geowake-test-subscriber",
                                   "GeoWake"]),
        // The subscriber library, its example and the subscriber the integration tests run.
        .target(name: "GeoWake", dependencies: ["GeoWakeCore", "GeoWakeProtocol"]),
        .executableTarget(name: "ParcelTracker", dependencies: ["GeoWake"], path: "Examples/ParcelTracker"),
        .executableTarget(name: "geowake-test-subscriber", dependencies: ["GeoWake"], path: "Tests/Subscribers/TestSubscriber"),
        .testTarget(name: "GeoWakeTests", dependencies: ["GeoWake", "GeoWakeProtocol", "ProcessLifecycle", "geowake-test-subscriber"]),
        .testTarget(name: "GeoWakeCoreTests", dependencies: ["GeoWakeCore"]),
        .testTarget(name: "TracesTests", dependencies: ["TestSupport", "Traces", "JSONLines", "FileBytes"]),
        // A real gpsd fed NMEA over TCP, for the GPSD and daemon tests.
        .target(name: "GPSDTestSupport", path: "Tests/GPSDTestSupport"),
        .testTarget(name: "GPSDTests", dependencies: ["TestSupport", "GPSDTestSupport", "GPSD", "Traces", "geowake"]),
        .testTarget(name: "GeofencingTests", dependencies: [
            "TestSupport", "RegionIndex", "Regions", "Geofencing", "JSONText", "JSONLines", "CGEOS", "CIntrinsics",
        ]),
        .testTarget(name: "LocationServicesTests", dependencies: ["LocationServices"]),
        .testTarget(name: "JSONLinesTests", dependencies: ["JSONLines"]),
        .testTarget(name: "GeoWakeCLITests", dependencies: ["TestSupport", "geowake"]),
        .testTarget(name: "ProcessLifecycleTests", dependencies: ["ProcessLifecycle"]),
        .testTarget(name: "BeaconsTests", dependencies: ["TestSupport", "Beacons", "Traces", "JSONLines"]),
        .testTarget(name: "FleetTests", dependencies: [
            "TestSupport", "GPSDTestSupport", "Fleet", "GeoWakeCore", "Geofencing", "RegionIndex", "Regions", "Traces", "JSONLines", "geowake",
        ]),
        .testTarget(name: "MapsTests", dependencies: ["TestSupport", "Maps", "TerminalProgress", "geowake"]),
    ],
    swiftLanguageModes: [.v6]
)
