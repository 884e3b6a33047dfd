/// A value from the input as an error message quotes it: cut to a length a terminal line can hold and
/// escaped the way JSON writes it, so a 10 MB id or a control byte never reaches the terminal raw.
package enum EchoedText {
    static let maximumLength = 60

    package static func quoted(_ bytes: some Collection<UInt8>) -> String {
        var text = "\""
        var shown = 0
        for scalar in String(decoding: bytes.prefix(maximumLength * 4), as: UTF8.self).unicodeScalars {
            if shown == maximumLength { break }
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
            shown += 1
        }
        text += "\""
        if shown == maximumLength && bytes.count > maximumLength { text += "… (\(bytes.count) bytes)" }
        return text
    }

    package static func quoted(_ text: String) -> String { quoted(Array(text.utf8)) }
}
