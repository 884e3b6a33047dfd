import GeoWakeCore
import GeoWakeProtocol
import Testing

/// The typed requests both ends share: what the library writes, the daemon reads back as the same value, and a field
/// of the wrong type is refused with the code the daemon answers, naming the field.
@Suite struct ProtocolRequestTests {
    @Test func eachStartRequestReadsBackAsWrittenWithOnlyTheGivenOptions() throws {
        let requests: [ServiceRequest] = [
            .standard(distanceFilter: 10, desiredAccuracy: nil, minimumInterval: 5),
            .significant(distance: 500, interval: 300),
            .visits(radius: nil, minimumDuration: 60),
        ]
        for request in requests {
            #expect(try ServiceRequest(request.kind, fields: request.fields) == request)
        }
        #expect(requests[0].fields == ["distanceFilter": 10, "minimumInterval": 5])
        #expect(try ServiceRequest(.visits, fields: ["radius": .null]) == .visits(radius: nil, minimumDuration: nil))
        #expect(throws: RequestError.badRequest("\"distance\" must be a finite number")) {
            try ServiceRequest(.significant, fields: ["distance": true])
        }
    }

    @Test func aRegisterRequestReadsBackAndEachFaultHasItsCode() throws {
        let register = RegisterRequest(client: "org.example.a", launch: ["/bin/true", "-x"], options: ["exitsOnSuspend": true],
                                       launchReason: .significantChange)
        #expect(try RegisterRequest(fields: register.fields) == register)
        #expect(register.fields["launchReason"] == "significant-change")
        func code(_ fields: [String: JSONValue]) -> ErrorCode? {
            do { _ = try RegisterRequest(fields: fields); return nil } catch { return error.code }
        }
        #expect(code(["client": 7]) == .badRequest)
        #expect(code(["client": "no spaces"]) == .invalidClientID)
        #expect(code(["client": "a", "launch": ["relative"]]) == .invalidLaunch)
        #expect(code(["client": "a", "launch": ["/bin/true", 1]]) == .invalidLaunch)
        #expect(code(["client": "a", "options": ["x"]]) == .badRequest)
        #expect(code(["client": "a", "launchReason": ""]) == .badRequest)
    }

    @Test func aMonitorRequestCarriesFeaturesOrAFileAndTheRules() throws {
        let rules = RegionRules(hysteresis: 20, accuracyGating: false)
        let monitor = MonitorRequest(regions: .features([["type": "Feature", "id": "a"]]), rules: rules)
        #expect(try MonitorRequest(fields: monitor.fields) == monitor)
        let collection: JSONValue = ["type": "FeatureCollection", "features": [["id": "b"]]]
        #expect(try MonitorRequest(fields: ["features": collection]) == MonitorRequest(regions: .features([["id": "b"]])))
        #expect(try MonitorRequest(fields: ["file": "/tmp/r.geojson"]).regions == .file("/tmp/r.geojson"))
        #expect(throws: RequestError.self) { try MonitorRequest(fields: ["file": "relative.geojson"]) }
        #expect(throws: RequestError.self) { try MonitorRequest(fields: ["features": [], "file": "/tmp/r.geojson"]) }
        #expect(throws: RequestError.badRequest("\"accuracyGating\" must be true or false")) {
            try MonitorRequest(fields: ["features": [], "accuracyGating": 1])
        }
    }

    @Test func aRangingConstraintReadsBackAndItsPartsAreIntegersInRange() throws {
        let ranging = RangingRequest(BeaconIdentity(uuid: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", major: 0))
        #expect(try RangingRequest(fields: ranging.fields) == ranging)
        #expect(ranging.fields["minor"] == nil && ranging.fields["major"] == 0)
        #expect(throws: RequestError.badRequest("\"minor\" must be an integer 0–65535")) {
            try RangingRequest(fields: ["uuid": "x", "minor": 65536])
        }
        #expect(throws: RequestError.badRequest("\"uuid\" must be a string")) { try RangingRequest(fields: ["major": 1]) }
    }

    @Test func aReplyLineEchoesTheIdAsSentAndReadsBack() throws {
        let ok = ReplyMessage.line(id: Array("7".utf8), .success(["acked": 3]))
        #expect(String(decoding: ok, as: UTF8.self) == #"{"id":7,"ok":true,"result":{"acked":3},"type":"reply"}"# + "\n")
        let refused = ReplyMessage.line(id: Array(#""a""#.utf8), .failure(RequestError(.unknownRegion, "no region")))
        let message = try refused.dropLast().withUnsafeBytes { bytes throws(JSONValue.SyntaxError) in try JSONValue(parsing: bytes) }
        let reply = try #require(ReplyMessage(message: message))
        #expect(reply.id == nil && reply.outcome == .failure(RequestError(.unknownRegion, "no region")))
        #expect(String(decoding: ServerNotice.fetch(budgetLeft: 29.5).line, as: UTF8.self) == #"{"type":"fetch","budgetLeft":29.5}"# + "\n")
    }

    @Test func anEventLineReadsBackWithItsNumberAndAnAckNamesItsEpoch() throws {
        let line = EventMessage.line(EventNumber(epoch: 3, seq: 12), eventText: #"{"event":"enter","region":"home"}"#)
        #expect(String(decoding: line, as: UTF8.self) == #"{"type":"event","epoch":3,"seq":12,"event":{"event":"enter","region":"home"}}"# + "\n")
        let message = try line.dropLast().withUnsafeBytes { bytes throws(JSONValue.SyntaxError) in try JSONValue(parsing: bytes) }
        let event = try #require(EventMessage(message: message))
        #expect(event.number == EventNumber(epoch: 3, seq: 12) && event.event["region"] == "home")
        let ack = AckRequest(event.number)
        #expect(ack.fields == ["seq": 12, "epoch": 3])
        #expect(try AckRequest(fields: ["seq": 4]) == AckRequest(seq: 4, epoch: nil))
        #expect(throws: RequestError.badRequest("\"seq\" must be an integer")) { try AckRequest(fields: ["seq": 1.5]) }
        #expect(throws: RequestError.badRequest("\"seq\" must be an integer")) { try AckRequest(fields: ["seq": true]) }
    }

    @Test func launchOptionsReadBackAsTheLibrarySendsThemAndUnknownModesAreRefused() throws {
        let options = LaunchOptions(relaunchAfterForceQuit: false, bluetoothInBackground: true, exitsOnSuspend: true)
        #expect(try LaunchOptions(fields: options.fields) == options)
        #expect(try LaunchOptions(fields: nil) == LaunchOptions())
        #expect(try LaunchOptions(fields: ["backgroundModes": ["location"], "future": 1]) == LaunchOptions(locationInBackground: true))
        #expect(throws: RequestError.badRequest(#""options.backgroundModes" must be an array of known modes ("location", "bluetooth-central")"#)) {
            try LaunchOptions(fields: ["backgroundModes": ["audio"]])
        }
        #expect(throws: RequestError.badRequest(#""options.relaunchAfterForceQuit" must be true or false"#)) {
            try LaunchOptions(fields: ["relaunchAfterForceQuit": 1])
        }
    }

    @Test func eachShortRequestReadsBackAsSentAndAWrongFieldIsNamed() throws {
        #expect(try HelloRequest(fields: HelloRequest(version: 1).fields) == HelloRequest(version: 1))
        #expect(try StopMonitoringRequest(fields: StopMonitoringRequest(regions: ["a", "b"]).fields).regions == ["a", "b"])
        #expect(try RegionStateRequest(fields: RegionStateRequest(region: "home").fields).region == "home")
        #expect(try EndBackgroundTaskRequest(fields: EndBackgroundTaskRequest(task: 7).fields).task == 7)
        #expect(try SetBackgroundFetchRequest(fields: SetBackgroundFetchRequest(minimumInterval: 900).fields).minimumInterval == 900)
        #expect(try SetBackgroundFetchRequest(fields: SetBackgroundFetchRequest(minimumInterval: nil).fields).minimumInterval == nil)
        #expect(try CompleteBackgroundFetchRequest(fields: CompleteBackgroundFetchRequest(result: .noData).fields).result == .noData)
        #expect(throws: RequestError.badRequest("\"protocol\" must be an integer")) { try HelloRequest(fields: ["protocol": true]) }
        #expect(throws: RequestError.badRequest("\"regions\" must be an array of strings")) { try StopMonitoringRequest(fields: ["regions": ["a", 1]]) }
        #expect(throws: RequestError.badRequest("\"region\" must be a string")) { try RegionStateRequest(fields: [:]) }
        #expect(throws: RequestError.badRequest("\"minimumInterval\" must be a number of seconds from 1 to 604800, or null")) {
            try SetBackgroundFetchRequest(fields: ["minimumInterval": 0.5])
        }
        #expect(try RegionPageRequest(fields: RegionPageRequest(after: "r9", limit: 10).fields) == RegionPageRequest(after: "r9", limit: 10))
        #expect(throws: RequestError.badRequest("\"limit\" must be an integer from 1 to 1000")) { try RegionPageRequest(fields: ["limit": 1001]) }
        #expect(throws: RequestError.badRequest(#""result" must be "newData", "noData" or "failed""#)) {
            try CompleteBackgroundFetchRequest(fields: ["result": "maybe"])
        }
    }
}
