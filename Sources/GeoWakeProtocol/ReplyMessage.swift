/// `{"type":"reply","id":…,"ok":true,"result":{…}}`, or `"ok":false` with `"error":{"code":…,"message":…}`: the answer
/// to one request. The daemon writes it; the library reads it.
public struct ReplyMessage: Hashable, Sendable {
    /// The request's id as a number (what the library sends); nil for a string or null id.
    public var id: Int?
    public var outcome: Result<JSONValue, RequestError>

    /// A server message that is a reply; nil for any other. A missing `result` is an empty one.
    public init?(message: JSONValue) {
        guard message["type"] == "reply" else { return nil }
        id = message["id"]?.int
        if message["ok"] == true {
            outcome = .success(message["result"] ?? .object([:]))
        } else {
            let error = message["error"]
            outcome = .failure(RequestError(ErrorCode(rawValue: error?["code"]?.string ?? "unknown"), error?["message"]?.string ?? ""))
        }
    }

    /// The line the daemon sends, newline included: the id first, as the client wrote it (JSON text), then the other
    /// members with their keys sorted.
    public static func line(id: [UInt8], _ outcome: Result<[String: JSONValue], RequestError>) -> [UInt8] {
        var members: [String: JSONValue] = ["type": "reply"]
        switch outcome {
        case .success(let result):
            members["ok"] = true
            members["result"] = .object(result)
        case .failure(let error):
            members["ok"] = false
            members["error"] = ["code": .string(error.code.rawValue), "message": .string(error.message)]
        }
        let text = JSONValue.object(members).line
        var line: [UInt8] = []
        line.reserveCapacity(text.count + id.count + 8)
        line += #"{"id":"#.utf8
        line += id
        line.append(UInt8(ascii: ","))
        line += text.dropFirst()
        line.append(UInt8(ascii: "\n"))
        return line
    }
}
