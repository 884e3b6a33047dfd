import CZlib

/// Inflates a gzip stream chunk by chunk (several concatenated members too, as `cat a.gz b.gz` makes
/// and rotated logs often are). A class: it owns zlib's stream state.
public final class Gunzip {
    private var stream = z_stream()
    private let output = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 17, alignment: 16)
    private var consumed = 0
    private var memberEnded = false

    /// The first two bytes of every gzip file (RFC 1952).
    public static func isGzip(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    public init() {
        // 15 + 32: the largest window, with a gzip (or zlib) header detected automatically.
        _ = inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    }

    deinit {
        inflateEnd(&stream)
        output.deallocate()
    }

    /// Inflates `bytes`, handing the decompressed bytes to `body` as they come.
    public func inflate(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(bytes.count)
        while stream.avail_in > 0 {
            if memberEnded {
                // Another member follows the one that ended; padding of zero bytes after the last is ignored.
                if stream.next_in[0] == 0 { stream.next_in += 1; stream.avail_in -= 1; consumed += 1; continue }
                inflateReset(&stream)
                memberEnded = false
            }
            let before = stream.avail_in
            stream.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(output.count)
            let status = CZlib.inflate(&stream, Z_NO_FLUSH)
            consumed += Int(before - stream.avail_in)
            let produced = output.count - Int(stream.avail_out)
            if produced > 0 { try body(UnsafeRawBufferPointer(rebasing: output[0..<produced])) }
            switch status {
            case Z_OK, Z_BUF_ERROR: continue
            case Z_STREAM_END: memberEnded = true
            default:
                let detail = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                throw FileReadError("corrupt gzip data near compressed byte \(consumed) (\(detail))")
            }
        }
    }

    /// Call at the end of the input: a member cut short is an error, not a silently shorter file.
    public func finish() throws {
        guard memberEnded || consumed == 0 else {
            throw FileReadError("the gzip data is truncated (it ends at compressed byte \(consumed) inside a member)")
        }
    }
}
