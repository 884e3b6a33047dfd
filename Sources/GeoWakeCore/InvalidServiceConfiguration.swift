/// A service option out of range, described in one sentence that names the option and what it expects:
/// what every service's `Configuration.validate()` throws.
public struct InvalidServiceConfiguration: Error, CustomStringConvertible, Sendable {
    public let description: String

    package init(_ description: String) {
        self.description = description
    }

    package static func requireNonNegative(_ value: Double, _ name: String, unit: String) throws(InvalidServiceConfiguration) {
        guard value.isFinite, value >= 0 else {
            throw InvalidServiceConfiguration("\(name) must be a finite number of \(unit) >= 0, got \(value)")
        }
    }

    package static func requireRange(_ value: Double, _ name: String, unit: String, maximum: Double) throws(InvalidServiceConfiguration) {
        guard value.isFinite, value >= 0, value <= maximum else {
            throw InvalidServiceConfiguration("\(name) must be a finite number of \(unit) from 0 to \(Int(maximum)), got \(value)")
        }
    }

    package static func requirePositive(_ value: Double, _ name: String, unit: String) throws(InvalidServiceConfiguration) {
        guard value.isFinite, value > 0 else {
            throw InvalidServiceConfiguration("\(name) must be a finite number of \(unit) > 0, got \(value)")
        }
    }
}
