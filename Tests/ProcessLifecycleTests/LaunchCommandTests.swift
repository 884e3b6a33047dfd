import Testing
import Glibc
import ProcessLifecycle

@Suite struct LaunchCommandTests {
    func refusal(_ arguments: [String], for owner: uid_t = 0) -> LaunchCommandError? {
        do { try LaunchCommand(arguments).validate(for: owner); return nil } catch { return error }
    }

    @Test func anAbsoluteRootOwnedExecutableIsAccepted() {
        #expect(refusal(["/bin/sleep", "1"]) == nil)
        #expect(refusal(["/bin/sleep"], for: 65534) == nil)
    }

    @Test func aScriptInAPrivateDirectoryUnderStickyTmpIsAccepted() {
        let scratch = Scratch()
        defer { scratch.remove() }
        #expect(refusal([scratch.file("client", "#!/bin/sh\n")]) == nil)
    }

    @Test func aRelativePathIsRefused() {
        #expect(refusal(["bin/sleep"]) == .notAbsolute("bin/sleep"))
        #expect(refusal([]) == .noArguments)
    }

    @Test func aMissingFileIsRefused() {
        #expect(refusal(["/nonexistent/client"]) == .missing("/nonexistent/client"))
    }

    @Test func aDirectoryIsNotARegularFile() {
        let scratch = Scratch()
        defer { scratch.remove() }
        #expect(refusal([scratch.path]) == .notRegularFile(scratch.path))
    }

    @Test func aFileWithoutAnExecuteBitIsRefused() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let file = scratch.file("client", "#!/bin/sh\n", mode: 0o644)
        #expect(refusal([file]) == .notExecutable(file))
    }

    @Test func aGroupWritableFileIsRefused() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let file = scratch.file("client", "#!/bin/sh\n", mode: 0o775)
        #expect(refusal([file]) == .writableByOthers(path: file, mode: 0o100775))
    }

    @Test func aWorldWritableDirectoryOnThePathIsRefused() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir("\(scratch.path)/open", 0o755)
        chmod("\(scratch.path)/open", 0o777)
        let file = scratch.file("open/client", "#!/bin/sh\n")
        #expect(refusal([file]) == .writableByOthers(path: "\(scratch.path)/open", mode: 0o040777))
    }

    @Test func aFileOwnedByAnotherUserIsRefused() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let file = scratch.file("client", "#!/bin/sh\n")
        chown(file, 65534, 65534)
        #expect(refusal([file], for: 1000) == .ownedByAnotherUser(path: file, owner: 65534))
        #expect(refusal([file], for: 65534) == nil)
    }

    @Test func aSymlinkIsCheckedWhereItLeads() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let target = scratch.file("real", "#!/bin/sh\n", mode: 0o777)
        symlink(target, "\(scratch.path)/link")
        #expect(refusal(["\(scratch.path)/link"]) == .writableByOthers(path: target, mode: 0o100777))
    }

    @Test func theErrorNamesThePath() {
        #expect(LaunchCommandError.notAbsolute("x").description == "launch command x: the path must be absolute")
    }
}
