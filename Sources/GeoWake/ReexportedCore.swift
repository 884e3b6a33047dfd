// The value types the API takes and gives (`Region`, `Fix`, `Timestamp`, `Coordinate`, `BeaconIdentity`) live in
// GeoWakeCore; re-exporting it lets a subscriber write `import GeoWake` alone. Typealiases would name the types but
// not bring their members into a file that imports only GeoWake, and would be ambiguous beside `import GeoWakeCore`.
@_exported import GeoWakeCore
// The protocol's shared types (`LaunchReason`, `ErrorCode`, `JSONValue`) likewise.
@_exported import GeoWakeProtocol
