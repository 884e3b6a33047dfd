// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "geowake",
    products: [
        .executable(name: "geowake", targets: ["geowake"]),
        // subscriber (#13)
        .library(name: "GeoWake", targets: ["GeoWake"]),
        .executable(name: "geowake-example", targets: ["ParcelTracker"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
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
                "GeoWakeCore", "Traces", "Geofencing", "LocationServices", "GPSD", "GeoWake",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // subscriber (#13)
        .target(name: "GeoWake", dependencies: ["GeoWakeCore"]),
        .executableTarget(name: "ParcelTracker", dependencies: ["GeoWake"], path: "Examples/ParcelTracker"),
        .executableTarget(name: "geowake-test-subscriber", dependencies: ["GeoWake"], path: "Tests/Subscribers/TestSubscriber"),
        .testTarget(name: "GeoWakeTests", dependencies: ["GeoWake", "geowake-test-subscriber"]),
        .testTarget(name: "GeoWakeCoreTests", dependencies: ["GeoWakeCore"]),
        .testTarget(name: "TracesTests", dependencies: ["Traces"]),
        .testTarget(name: "GPSDTests", dependencies: ["GPSD", "Traces", "geowake"]),
        .testTarget(name: "GeofencingTests", dependencies: ["Geofencing", "CGEOS", "CIntrinsics"]),
        .testTarget(name: "LocationServicesTests", dependencies: ["LocationServices"]),
        .testTarget(name: "GeoWakeCLITests", dependencies: ["geowake"]),
    ],
    swiftLanguageModes: [.v6]
)
