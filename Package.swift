// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "geowake",
    products: [
        .executable(name: "geowake", targets: ["geowake"]),
        .executable(name: "geowaked", targets: ["geowaked"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // daemon (#13)
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(name: "GeoWakeCore"),
        .target(name: "Traces", dependencies: ["GeoWakeCore"]),
        .systemLibrary(name: "CGEOS", path: "Sources/CGEOS", providers: [.apt(["libgeos-dev"])]),
        .systemLibrary(name: "CLibGPS", path: "Sources/CLibGPS", providers: [.apt(["libgps-dev"])]),
        .target(name: "CIntrinsics"),
        .target(name: "Geofencing", dependencies: ["GeoWakeCore", "CGEOS", "CIntrinsics"]),
        .target(name: "LocationServices", dependencies: ["GeoWakeCore"]),
        .target(name: "GPSD", dependencies: ["GeoWakeCore", "Traces", "CLibGPS"]),
        .executableTarget(
            name: "geowake",
            dependencies: [
                "GeoWakeCore", "Traces", "Geofencing", "LocationServices", "GPSD",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // daemon (#13)
        .target(
            name: "GeoWakeDaemon",
            dependencies: [
                "GeoWakeCore", "Traces", "Geofencing", "LocationServices", "GPSD",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "geowaked",
            dependencies: ["GeoWakeDaemon", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(name: "GeoWakeDaemonTests", dependencies: ["GeoWakeDaemon", "geowaked"]),
        .testTarget(name: "GeoWakeCoreTests", dependencies: ["GeoWakeCore"]),
        .testTarget(name: "TracesTests", dependencies: ["Traces"]),
        .testTarget(name: "GPSDTests", dependencies: ["GPSD", "Traces", "geowake"]),
        .testTarget(name: "GeofencingTests", dependencies: ["Geofencing", "CGEOS", "CIntrinsics"]),
        .testTarget(name: "LocationServicesTests", dependencies: ["LocationServices"]),
        .testTarget(name: "GeoWakeCLITests", dependencies: ["geowake"]),
    ],
    swiftLanguageModes: [.v6]
)
