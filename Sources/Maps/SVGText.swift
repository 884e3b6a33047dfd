import GeoWakeCore

/// The bytes of an SVG or HTML document, with the number and text formatting the maps need and nothing more.
/// Built by hand rather than through String interpolation: a big map has hundreds of thousands of numbers.
struct SVGText {
    var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int = 1 << 16) {
        bytes.reserveCapacity(capacity)
    }

    mutating func raw(_ s: String) {
        bytes.append(contentsOf: s.utf8)
    }

    /// A pixel coordinate to a tenth of a pixel: finer is invisible, and every digit costs file size.
    mutating func number(_ value: Double) {
        guard value.isFinite else { bytes.append(UInt8(ascii: "0")); return }
        var tenths = Int((value * 10).rounded())
        if tenths < 0 { bytes.append(UInt8(ascii: "-")); tenths = -tenths }
        integer(tenths / 10)
        if tenths % 10 != 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0") + UInt8(tenths % 10))
        }
    }

    mutating func integer(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")); integer(-value); return }
        if value >= 10 { integer(value / 10) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    mutating func point(_ p: PixelPoint) {
        number(p.x)
        bytes.append(UInt8(ascii: ","))
        number(p.y)
    }

    /// Text content or an attribute value, escaped for XML.
    mutating func escaped(_ s: String) {
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "<"): raw("&lt;")
            case UInt8(ascii: ">"): raw("&gt;")
            case UInt8(ascii: "&"): raw("&amp;")
            case UInt8(ascii: "\""): raw("&quot;")
            case UInt8(ascii: "'"): raw("&#39;")
            default: bytes.append(byte)
            }
        }
    }

    /// `HH:MM:SS` UTC, the part of the time that tells events of one trace apart.
    mutating func clock(_ t: Timestamp) {
        let c = t.civil
        twoDigits(c.hour)
        bytes.append(UInt8(ascii: ":"))
        twoDigits(c.minute)
        bytes.append(UInt8(ascii: ":"))
        twoDigits(c.second)
    }

    private mutating func twoDigits(_ v: Int) {
        bytes.append(UInt8(ascii: "0") + UInt8(v / 10 % 10))
        bytes.append(UInt8(ascii: "0") + UInt8(v % 10))
    }
}
