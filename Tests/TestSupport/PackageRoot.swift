/// The package root, found from this file's path (`<root>/Tests/TestSupport/PackageRoot.swift`) so tests run
/// from any working directory.
public let packageRoot: String =
    #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
