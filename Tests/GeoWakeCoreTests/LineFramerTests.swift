import GeoWakeCore
import Testing

/// The one line framing: the protocol's two ends take lines one at a time (`append`, `next`), the JSON-lines trace
/// readers have each chunk's lines lent to them (`split`, `finish`).
struct LineFramerTests {
    /// What `split` and `finish` hand over for these chunks: each line as text, nil for one too long.
    static func split(_ chunks: [String], maximumLine: Int) -> [String?] {
        var framer = LineFramer(maximumLine: maximumLine)
        var lines: [String?] = []
        let take: (UnsafeBufferPointer<UInt8>?) -> Void = { line in lines.append(line.map { String(decoding: $0, as: UTF8.self) }) }
        for chunk in chunks {
            Array(chunk.utf8).withUnsafeBytes { framer.split($0, take) }
        }
        framer.finish(take)
        return lines
    }

    /// What `append` and `next` hand over for the same chunks (and the last line `finish` gives).
    static func pulled(_ chunks: [String], maximumLine: Int) -> [String?] {
        var framer = LineFramer(maximumLine: maximumLine)
        var lines: [String?] = []
        for chunk in chunks {
            framer.append(Array(chunk.utf8))
            taking: while true {
                switch framer.next() {
                case .line(let line): lines.append(String(decoding: line, as: UTF8.self))
                case .tooLong: lines.append(nil)
                case .none: break taking
                }
            }
        }
        framer.finish { line in lines.append(line.map { String(decoding: $0, as: UTF8.self) }) }
        return lines
    }

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
        framer.append([UInt8](repeating: 0x61, count: LineFramer.maximumProtocolLine) + [10])
        guard case .line(let line) = framer.next() else { Issue.record("the longest line is a line"); return }
        #expect(line.count == LineFramer.maximumProtocolLine)
        framer.append([UInt8](repeating: 0x61, count: LineFramer.maximumProtocolLine + 1))
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

    @Test func aTraceReaderGetsEveryLineWhateverTheChunksAndTheLastOneWithoutANewlineAtFinish() {
        let text = "first\n\nsecond line\r\n# comment\nlast, no newline"
        let expected: [String?] = ["first", "", "second line\r", "# comment", "last, no newline"]
        #expect(Self.split([text], maximumLine: 64) == expected)
        for cut in 1..<text.utf8.count {
            let bytes = Array(text.utf8)
            let chunks = [String(decoding: bytes[..<cut], as: UTF8.self), String(decoding: bytes[cut...], as: UTF8.self)]
            #expect(Self.split(chunks, maximumLine: 64) == expected, "cut at \(cut)")
        }
    }

    @Test func anOverlongLineIsReportedOnceAndTheLinesAfterItStillCome() {
        let long = String(repeating: "x", count: 40)
        // Whole in one chunk, begun in an earlier chunk, passing the maximum with no newline yet, or the last line.
        #expect(Self.split(["a\n" + long + "\nb\n"], maximumLine: 16) == ["a", nil, "b"])
        #expect(Self.split(["a\nxxxx", long + "\nb\n"], maximumLine: 16) == ["a", nil, "b"])
        #expect(Self.split(["a\n", long, long, "\nb"], maximumLine: 16) == ["a", nil, "b"])
        #expect(Self.split(["a\n", long], maximumLine: 16) == ["a", nil])
        #expect(Self.pulled(["a\n" + long + "\nb\n"], maximumLine: 16) == ["a", nil, "b"])
        #expect(Self.pulled(["a\n", long, long, "\nb\n"], maximumLine: 16) == ["a", nil, "b"])
        #expect(Self.split(["a\n" + String(repeating: "y", count: 16) + "\n"], maximumLine: 16) == ["a", String(repeating: "y", count: 16)],
                "a line of exactly the maximum is a line")
    }

    @Test func anEndlessLineHoldsNoMoreThanTheMaximum() {
        var framer = LineFramer(maximumLine: 1000)
        var reports = 0
        for _ in 0..<100 {
            [UInt8](repeating: 0x61, count: 300).withUnsafeBytes { framer.split($0) { line in if line == nil { reports += 1 } } }
            #expect(framer.bufferedBytes <= 1000)
        }
        #expect(reports == 1)
        Array("tail\nnext\n".utf8).withUnsafeBytes { framer.split($0) { line in
            #expect(line.map { String(decoding: $0, as: UTF8.self) } == "next")
        } }
    }
}
