import Foundation
import Testing
import TestSupport

/// `scripts/install` run for real into a temporary directory, with the binaries this test run built.
@Suite struct InstallScriptTests {
    static let built = (builtExecutable("geowaked") as NSString).deletingLastPathComponent

    /// Runs the script with `arguments` and `DESTDIR`; its exit status and standard error.
    static func install(_ arguments: [String], destdir: String?) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonProcess.root + "/scripts/install")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["DESTDIR"] = destdir
        process.environment = environment
        let err = Pipe()
        process.standardError = err
        try process.run()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, errors)
    }

    static func mode(_ path: String) -> mode_t {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
    }

    static func freshDirectory() -> String {
        let path = NSTemporaryDirectory() + "geowake-install-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("--user puts both binaries in PREFIX/bin and a unit in PREFIX/share/systemd/user that runs them on gpsd")
    func userInstall() throws {
        let root = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = try Self.install(["--user", "--prefix", "/home/someone/.local", "--from", Self.built], destdir: root)
        #expect(run.status == 0, "\(run.errors)")
        for binary in ["geowake", "geowaked"] {
            let installed = root + "/home/someone/.local/bin/" + binary
            #expect(Self.mode(installed) == 0o755)
            #expect(FileManager.default.contentsEqual(atPath: installed, andPath: Self.built + "/" + binary))
        }
        let unitPath = root + "/home/someone/.local/share/systemd/user/geowaked.service"
        #expect(Self.mode(unitPath) == 0o644)
        let unit = try String(contentsOfFile: unitPath, encoding: .utf8)
        #expect(unit.contains("\nExecStart=/home/someone/.local/bin/geowaked --source gpsd://127.0.0.1:2947\n"))
        #expect(unit.contains("\nKillMode=process\n"))
        #expect(!unit.contains("trace:"))
        #expect(run.errors.contains("systemctl --user daemon-reload && systemctl --user enable --now geowaked"))
    }

    @Test("--system puts the binaries in /usr/local/bin and a --system unit in /usr/local/lib/systemd/system")
    func systemInstall() throws {
        let root = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = try Self.install(["--system", "--from", Self.built], destdir: root)
        #expect(run.status == 0, "\(run.errors)")
        #expect(Self.mode(root + "/usr/local/bin/geowaked") == 0o755)
        #expect(Self.mode(root + "/usr/local/bin/geowake") == 0o755)
        let unit = try String(contentsOfFile: root + "/usr/local/lib/systemd/system/geowaked.service", encoding: .utf8)
        #expect(unit.contains("\nExecStart=/usr/local/bin/geowaked --system --source gpsd://127.0.0.1:2947\n"))
        #expect(unit.contains("\nRuntimeDirectoryMode=0755\n") && unit.contains("\nKillMode=process\n"))
        #expect(unit.contains("\nStateDirectoryMode=0700\n"))
    }

    @Test("Without built binaries, or with an unknown option, the script fails with one line and installs nothing")
    func badInvocation() throws {
        let root = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let missing = try Self.install(["--user", "--from", root + "/nothing"], destdir: root)
        #expect(missing.status == 66)
        #expect(missing.errors == "scripts/install: \(root)/nothing/geowake: no such executable (build it, or give --from DIR)\n")
        let unknown = try Self.install(["--everywhere"], destdir: root)
        #expect(unknown.status == 64)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).isEmpty)
    }

    @Test("systemd-analyze verify has nothing to say about either installed unit",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"), "needs systemd-analyze (Debian's systemd)"))
    func installedUnitsVerify() throws {
        for mode in ["user", "system"] {
            // No DESTDIR: the verifier checks that ExecStart's binary exists where the unit says.
            let prefix = Self.freshDirectory()
            defer { try? FileManager.default.removeItem(atPath: prefix) }
            let run = try Self.install(["--\(mode)", "--prefix", prefix, "--from", Self.built], destdir: nil)
            #expect(run.status == 0, "\(run.errors)")
            let unit = prefix + (mode == "user" ? "/share/systemd/user" : "/lib/systemd/system") + "/geowaked.service"
            let verify = Process()
            verify.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
            verify.arguments = (mode == "user" ? ["--user"] : []) + ["verify", "--man=no", unit]
            verify.environment = ["XDG_RUNTIME_DIR": prefix, "PATH": "/usr/bin:/bin"]
            let output = Pipe()
            verify.standardOutput = output
            verify.standardError = output
            try verify.run()
            let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            verify.waitUntilExit()
            #expect(verify.terminationStatus == 0 && said.isEmpty, "\(mode): \(said)")
        }
    }
}
