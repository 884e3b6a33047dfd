/// A service option out of range, described in one sentence that names the option and what it expects.
public struct InvalidServiceConfiguration: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }

    static func requireNonNegative(_ value: Double, _ name: String, unit: String) throws(InvalidServiceConfiguration) {
        guard value.isFinite, value >= 0 else {
            throw InvalidServiceConfiguration("\(name) must be a finite number of \(unit) >= 0, got \(value)")
        }
    }

    static func requirePositive(_ value: Double, _ name: String, unit: String) throws(InvalidServiceConfiguration) {
        guard value.isFinite, value > 0 else {
            throw InvalidServiceConfiguration("\(name) must be a finite number of \(unit) > 0, got \(value)")
        }
    }
}
