#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Traces

/// `geowake bench nmea FILE`: NMEA parsing alone (fixes are counted, not printed), so that
/// `Benchmarks/nmea.sh` can show the reader's share of `geowake fixes`.
struct BenchNMEACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nmea",
        abstract: "Time reading a trace into fixes without printing them; prints one JSON line."
    )

    @Argument(help: "The trace file.")
    var trace: String

    @Option(parsing: .unconditional, help: "Runs; the median is reported.")
    var runs: Int = 3

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
    }

    func run() throws {
        var seconds: [Double] = []
        var statistics = TraceStatistics()
        var bytes = 0
        for _ in 0..<runs {
            let start = BenchNMEACommand.now()
            do {
                statistics = try TraceFile.read(trace) { _ in }
            } catch let error as TraceError {
                throw CommandError(error.description)
            }
            seconds.append(BenchNMEACommand.now() - start)
        }
        var info = stat()
        if stat(trace, &info) == 0 { bytes = Int(info.st_size) }
        let median = seconds.sorted()[seconds.count / 2]
        let megabytesPerSecond = (Double(bytes) / 1e6 / median * 10).rounded() / 10
        print("{\"tool\":\"geowake bench nmea\",\"bytes\":\(bytes),\"sentences\":\(statistics.sentences),"
              + "\"fixes\":\(statistics.fixes),\"repeat\":\(runs),\"s_median\":\((median * 1000).rounded() / 1000),"
              + "\"MB_per_s\":\(megabytesPerSecond)}")
    }

    private static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
