/// A timestamp prints as the contract writes times: UTC, ISO 8601 with milliseconds and `Z`
/// (`2014-12-31T03:07:19.000Z`), so `print(event.fix?.time)` reads as the JSON lines do.
extension Timestamp: CustomStringConvertible {
    public var description: String {
        let t = civil
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value.magnitude)
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(t.year, 4))-\(padded(t.month, 2))-\(padded(t.day, 2))T\(padded(t.hour, 2)):\(padded(t.minute, 2)):"
            + "\(padded(t.second, 2)).\(padded(t.millisecond, 3))Z"
    }
}
