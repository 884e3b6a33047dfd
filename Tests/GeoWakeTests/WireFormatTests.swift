@testable import GeoWake
import GeoWakeCore
import Testing

@Suite struct WireFormatTests {
    @Test func anExitForARemovedRegionCarriesItsReasonAndFix() throws {
        let line = #"{"type":"event","seq":2,"event":{"event":"exit","region":"home","time":"2014-12-31T03:09:02.250Z","lat":48.1,"lon":11.5,"reason":"regionRemoved"}}"#
        let event = try #require(LocationEvent(message: JSONValue(line: Array(line.utf8))))
        #expect(event.seq == 2)
        #expect(event.kind == .exit(RegionRef(id: "home", crossed: false, reason: "regionRemoved")))
        #expect(event.fix?.coordinate == Coordinate(latitude: 48.1, longitude: 11.5))
        #expect(event.fix?.time == Timestamp(year: 2014, month: 12, day: 31, hour: 3, minute: 9, second: 2, millisecond: 250))
    }

    @Test func aSignificantChangeIsReadAsOneWithItsAccuracy() throws {
        let line = #"{"type":"event","seq":7,"event":{"event":"significant","time":"2014-12-31T03:09:02.000Z","lat":1,"lon":2,"hAcc":4.5,"mode":3}}"#
        let event = try #require(LocationEvent(message: JSONValue(line: Array(line.utf8))))
        guard case .significantChange(let fix) = event.kind else { Issue.record("kind \(event.kind)"); return }
        #expect(fix.horizontalAccuracy == 4.5)
        #expect(fix.mode == .threeD)
    }

    @Test func booleansStayBooleansAndNumbersNumbers() throws {
        let value = try JSONValue(line: Array(#"{"a":true,"b":1,"c":0}"#.utf8))
        #expect(value["a"] == .bool(true))
        #expect(value["b"] == .number(1))
        #expect(value["c"] == .number(0))
    }

    @Test func aLineIsReadWithNestingEscapesUnicodeAndEveryKindOfValue() throws {
        let line = #"{"s":"a\"b\\c\n\u00e9\ud83c\udf0d/","n":[-1.5e3,0,12345678901234567,null,true,false,[],{}],"o":{"k":{"k":"v"}},"é":""}"#
        let value = try JSONValue(line: Array(line.utf8))
        #expect(value["s"] == .string("a\"b\\c\né\u{1F30D}/"))
        // 12345678901234567 has no double of its own: it reads as the nearest one.
        #expect(value["n"] == [-1500, 0, .number(12345678901234568), .null, true, false, [], .object([:])])
        #expect(value["o"]?["k"]?["k"] == "v")
        #expect(value["é"] == "")
        #expect(try JSONValue(line: Array(" [ 1 , \"x\" ] ".utf8)) == [1, "x"])
    }

    @Test func aValueIsWrittenCompactWithSortedKeysWholeNumbersWithoutAFractionAndEscapesThatReadBack() throws {
        let value: JSONValue = ["op": "ack", "seq": 12, "b": [1.5, -2, 1e15, .null, true], "s": "a\"b\\c/\n\u{1}é", "a": .object([:])]
        let line = String(decoding: value.line, as: UTF8.self)
        #expect(line == #"{"a":{},"b":[1.5,-2,1000000000000000.0,null,true],"op":"ack","s":"a\"b\\c/\n\u0001é","seq":12}"#)
        #expect(try JSONValue(line: value.line) == value)
        #expect(JSONValue.number(.nan).line == Array("null".utf8))
    }

    @Test func aMalformedLineIsAMalformedReplyNamingItsText() {
        for line in [#"{"a":1"#, #"{"a":1}x"#, #"{"a":01}"#, #"{"a":NaN}"#, #"{"a":-Infinity}"#, #"{a:1}"#, #"{"a":tru}"#,
                     "{\"a\":\"\u{1}\"}", "", #"{"a":1,}"#, #"[1 2]"#, String(repeating: "[", count: 600) + String(repeating: "]", count: 600)] {
            #expect(throws: GeoWakeError.malformedReply(String(line.prefix(200)))) { try JSONValue(line: Array(line.utf8)) }
        }
    }

    @Test func aCircleIsSentAsAPointFeatureWithItsRadius() {
        let feature = Region.circle(id: "depot", latitude: 52.5, longitude: 13.4, radius: 150).feature
        #expect(feature["id"] == "depot")
        #expect(feature["geometry"]?["coordinates"] == [13.4, 52.5])
        #expect(feature["properties"]?["radius"] == 150)
    }

    @Test func regionRulesAreSentAsMonitorFieldsWithNullForTheDaemonsOwnFlag() {
        let fields = RegionRules(hysteresis: 20, accuracyGating: false, segmentCrossing: true).fields
        #expect(fields == ["hysteresis": 20, "debounce": .null, "accuracyGating": false, "segmentCrossing": true])
    }

    @Test func theLaunchReasonIsReadFromTheEnvironmentAndAbsentWhenStartedByHand() {
        #expect(LaunchReason(environment: ["GEOWAKE_LAUNCH_REASON": "significant-change"]) == .significantChange)
        #expect(LaunchReason(environment: [:]) == nil)
    }

    @Test func aRelativeRelaunchPathIsSentAbsoluteAsTheDaemonRequires() {
        let relative = Relaunch.executable("Package.swift").launch
        guard let path = relative?.first else {
            Issue.record("no launch array: \(String(describing: relative))")
            return
        }
        #expect(path.hasPrefix("/") && path.hasSuffix("/Package.swift"))
        #expect(Relaunch.executable("/usr/bin/env").launch == ["/usr/bin/env"])
    }

    @Test func theSocketOverrideWins() {
        #expect(SocketPath.resolve(environment: ["GEOWAKE_SOCKET": "/tmp/x.sock", "XDG_RUNTIME_DIR": "/run/user/0"]) == "/tmp/x.sock")
    }
}
