import GeoWakeProtocol
import Testing

/// The one framing both ends of the protocol use (the daemon's connections, the library's socket).
struct LineFramerTests {
    @Test func linesSplitAcrossReadsComeOutWholeAndInOrder() {
        var framer = LineFramer()
        framer.append(Array(#"{"op":"hel"#.utf8))
        var next = framer.next()
        #expect(next == .none)
        var waiting = framer.hasCompleteLine()
        #expect(!waiting)
        framer.append(Array("lo\"}\n{\"op\":\"ack\"}\n{\"op\"".utf8))
        waiting = framer.hasCompleteLine()
        #expect(waiting)
        next = framer.next()
        #expect(next == .line(Array(#"{"op":"hello"}"#.utf8)))
        next = framer.next()
        #expect(next == .line(Array(#"{"op":"ack"}"#.utf8)))
        next = framer.next()
        #expect(next == .none)
        #expect(framer.bufferedBytes == 5, "the partial {\"op\" waits")
    }

    @Test func aLineOfTheMaximumLengthPassesAndOneByteMoreCannotBeFramed() {
        var framer = LineFramer()
        framer.append([UInt8](repeating: 0x61, count: LineFramer.maximumLine) + [10])
        guard case .line(let line) = framer.next() else { Issue.record("the longest line is a line"); return }
        #expect(line.count == LineFramer.maximumLine)
        framer.append([UInt8](repeating: 0x61, count: LineFramer.maximumLine + 1))
        let next = framer.next()
        #expect(next == .tooLong)
    }

    @Test func manySmallLinesKeepTheBufferSmall() {
        var framer = LineFramer()
        for i in 0..<10_000 {
            framer.append(Array("{\"seq\":\(i)}\n".utf8))
            let next = framer.next()
            #expect(next == .line(Array("{\"seq\":\(i)}".utf8)))
        }
        #expect(framer.bufferedBytes == 0)
    }
}
