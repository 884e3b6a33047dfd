#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under /tmp for one test, removed with the files in it when the value goes away.
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init() {
        var template = Array("/tmp/geowake-tests-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { fatalError("mkdtemp in /tmp failed: errno \(errno)") }
        path = String(cString: made)
    }

    deinit {
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(directory)
        }
        rmdir(path)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to the file `name` in this directory and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) -> String {
        let file = file(name)
        guard let handle = fopen(file, "w") else { fatalError("cannot write \(file): errno \(errno)") }
        fputs(text, handle)
        fclose(handle)
        return file
    }
}
