import ArgumentParser
import Fleet
import FileBytes

/// `geowake fleet assign FILE`: which devices monitor which region sets, for every running worker.
struct FleetAssignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assign",
        abstract: "Store which devices monitor which region sets (default/prefix/device lines); running workers switch to it.",
        discussion: """
        One rule a line: `default SETS`, `prefix PREFIX SETS`, `device ID SETS`, SETS comma-separated (none: no \
        region monitoring). A device's own line wins, then its longest prefix, then default (without one, the \
        workers' --region-set). See docs/fleet.md.
        """
    )

    @Argument(help: "The assignments file, or - for standard input.")
    var path: String

    @OptionGroup var nats: FleetConnectionOptions

    func run() throws {
        var bytes: [UInt8] = []
        try WholeFile.withContents(of: path) { bytes = Array($0) }
        let text = String(decoding: bytes, as: UTF8.self)
        do {
            _ = try RegionAssignments(text: text)
        } catch {
            throw CommandError("\(path): \(error)")
        }
        let connection = try nats.connect(name: "geowake fleet assign")
        let revision = try FleetAssignments.put(connection, text: text, layout: nats.layout)
        print("{\"assignments\":\(revision)}")
    }
}
