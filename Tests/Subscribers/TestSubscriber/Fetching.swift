#if canImport(Glibc)
import Glibc
#endif
import GeoWake

/// The test subscriber's background fetches: `--fetch SECONDS` sets the minimum interval; each fetch appends
/// `{"fetched":PID,"budgetLeft":S,"at":MONOTONIC}`, then reports the next of `--fetch-results` (comma-separated
/// `newData`, `noData`, `failed` or `none` for no report; the last repeats; default `newData`) and appends
/// `{"completed":RESULT,"interval":S}`. The results are counted over the output file, so they run on across
/// the processes the daemon launches.
enum Fetching {
    static func start(_ manager: LocationManager, interval: Double, results: String?, output: Int32, outputPath: String) async throws {
        try await manager.setMinimumBackgroundFetchInterval(interval)
        let plan = (results ?? "newData").split(separator: ",").map(String.init)
        Task {
            for await fetch in manager.backgroundFetches {
                let done = fetchesSoFar(outputPath)
                TestSubscriber.append(.object(["fetched": .number(Double(getpid())), "budgetLeft": .number(fetch.budgetLeft),
                                               "at": .number(TestSubscriber.monotonic())]), to: output)
                let name = plan[min(done, plan.count - 1)]
                guard let result = BackgroundFetchResult(rawValue: name) else { continue }
                let status = try? await manager.completeBackgroundFetch(result)
                TestSubscriber.append(.object(["completed": .string(name), "interval": .number(status?.interval ?? -1)]),
                                      to: output)
            }
        }
    }

    /// How many `fetched` lines the output file holds.
    static func fetchesSoFar(_ path: String) -> Int {
        guard let file = fopen(path, "r") else { return 0 }
        defer { fclose(file) }
        var count = 0
        var buffer = [CChar](repeating: 0, count: 65536)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if line.contains("\"fetched\":") { count += 1 }
        }
        return count
    }
}
