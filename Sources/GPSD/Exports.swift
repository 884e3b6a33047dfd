@_exported import GeoWakeCore
