#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import JSONLines
import TerminalProgress
import Traces

/// `geowake fixes TRACE`: the fixes of a trace as JSON lines, the reading summary on standard error.
struct FixesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixes",
        abstract: "Print the fixes of a trace (NMEA 0183, gpsd JSON or GPX) as JSON lines."
    )

    @Argument(help: """
        The trace file, or - for standard input. The format is detected from the content. \
        Live: gpsd://HOST:PORT (gpsd) or a serial device such as /dev/ttyUSB0, until interrupted.
        """)
    var trace: String

    @Option(parsing: .unconditional, help: "Baud rate of a serial NMEA device (default 4800).")
    var baud: Int?

    @OptionGroup var progress: ProgressOptions

    func run() throws {
        if let live = try LiveFixes.source(trace, baudRate: baud) {
            return try LiveFixes.run(live)
        }
        var output = StandardOutput()
        let statistics: TraceStatistics
        var bar = Progress(label: "reading", unit: .bytes, total: nil, quiet: progress.quiet)
        do {
            defer { bar.finish() }
            statistics = try TraceFile.read(trace, progress: { bar.update($0, total: $1) }) { fix in
                output.writer.fixLine(fix)
                try output.lineDone()
            }
        } catch let error as TraceError {
            throw CommandError(error.description)
        }
        try output.flush()
        let summary = Array("geowake fixes: \(statistics.summary)\n".utf8)
        _ = summary.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
