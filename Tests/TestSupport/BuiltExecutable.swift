/// The path of an executable product SwiftPM built beside the running test bundle (`…/debug/NAME`), so that
/// tests run the very `geowake` or `geowaked` a user runs.
public func builtExecutable(_ name: String) -> String {
    var parts = CommandLine.arguments[0].split(separator: "/", omittingEmptySubsequences: false)
    while let last = parts.last, !last.hasSuffix(".xctest") { parts.removeLast() }
    parts.removeLast()
    return (parts + [Substring(name)]).joined(separator: "/")
}
