// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "geowake",
    products: [
        .executable(name: "geowake", targets: ["geowake"]),
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
        .target(name: "Maps", dependencies: ["GeoWakeCore"]),
        .target(name: "TerminalProgress"),
        .executableTarget(
            name: "geowake",
            dependencies: [
                "GeoWakeCore", "Traces", "Geofencing", "LocationServices", "GPSD", "Maps", "TerminalProgress",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "GeoWakeCoreTests", dependencies: ["GeoWakeCore"]),
        .testTarget(name: "TracesTests", dependencies: ["Traces"]),
        .testTarget(name: "GPSDTests", dependencies: ["GPSD", "Traces", "geowake"]),
        .testTarget(name: "GeofencingTests", dependencies: ["Geofencing", "CGEOS", "CIntrinsics"]),
        .testTarget(name: "LocationServicesTests", dependencies: ["LocationServices"]),
        .testTarget(name: "GeoWakeCLITests", dependencies: ["geowake"]),
        .testTarget(name: "MapsTests", dependencies: ["Maps", "TerminalProgress", "geowake"]),
    ],
    swiftLanguageModes: [.v6]
)
