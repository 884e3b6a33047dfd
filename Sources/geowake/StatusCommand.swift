import ArgumentParser
import GeoWake

/// `geowake status`: the source and its health, then each of the caller's clients, one JSON line each.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show geowaked's source (and beacon source), its health and last fix, and each of your clients (connection, subscriptions, pending events)."
    )

    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        let result = try daemon.call("status")
        var source = result["source"]?.object ?? [:]
        source["type"] = "source"
        var sources: [JSONValue] = [.object(source)]
        if var beacons = result["beaconSource"]?.object {
            beacons["type"] = "beaconSource"
            sources.append(.object(beacons))
        }
        let clients = (result["clients"]?.array ?? []).map { client -> JSONValue in
            var fields = client.object ?? [:]
            fields["type"] = "client"
            return .object(fields)
        }
        printLines(sources + clients)
    }
}

/// `geowake clients`: the caller's clients, one JSON line each.
struct ClientsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "clients", abstract: "List your geowaked clients.")

    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        printLines(try daemon.call("clients")["clients"]?.array ?? [])
    }
}

/// `geowake subscriptions CLIENT`: each subscription, then each monitored region with its state.
struct SubscriptionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscriptions", abstract: "List one client's subscriptions and its regions' states."
    )

    @Argument(help: "The client id, e.g. org.example.tracker.") var client: String
    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        var result = try daemon.call("subscriptions", ["client": .string(client)])
        let subscriptions = result["subscriptions"]?.array ?? []
        var regions = result["regions"]?.array ?? []
        // The regions come a page at a time: the next page starts after the last id.
        while result["more"] == true, let last = regions.last?["region"] {
            result = try daemon.call("subscriptions", ["client": .string(client), "after": last])
            regions += result["regions"]?.array ?? []
        }
        printLines(subscriptions + regions.map { region -> JSONValue in
            var fields = region.object ?? [:]
            fields["kind"] = "region"
            return .object(fields)
        })
    }
}

/// `geowake disable CLIENT` / `geowake enable CLIENT`: each prints the client's new state, `{"client":…,"disabled":…}`,
/// the keys of its entry in `geowake clients`.
struct DisableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable", abstract: "Stop a client's services and relaunches; its stored state is kept."
    )

    @Argument(help: "The client id.") var client: String
    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        _ = try daemon.call("disable", ["client": .string(client)])
        printLines([["client": .string(client), "disabled": true]])
    }
}

struct EnableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "enable", abstract: "Undo `geowake disable`.")

    @Argument(help: "The client id.") var client: String
    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        _ = try daemon.call("enable", ["client": .string(client)])
        printLines([["client": .string(client), "disabled": false]])
    }
}
