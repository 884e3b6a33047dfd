#if canImport(Glibc)
import Glibc
#endif
import Foundation
import JSONText
import Testing
import TestSupport

/// `JSONScanner.number()` gives strtod's double, bit for bit, for the numbers its fast paths (Clinger's, then
/// Eisel-Lemire's) take as well as for those they hand on to strtod.
@Suite struct JSONNumberTests {
    private func expectSameAsStrtod(_ text: String) throws {
        var bytes = Array(text.utf8)
        bytes.append(UInt8(ascii: " "))
        let scanned = try bytes.withUnsafeBytes { raw -> Double in
            var scanner = JSONScanner(raw)
            return try scanner.number()
        }
        let expected = strtod(text, nil)
        #expect(scanned.bitPattern == expected.bitPattern, "\(text): \(scanned) but strtod gives \(expected)")
    }

    @Test func shortestAndSixteenOrSeventeenDigitCoordinatesAreReadAsStrtodReadsThem() throws {
        var rng = SeededGenerator(seed: 11)
        for _ in 0..<50_000 {
            let value = Double.random(in: -180...180, using: &rng)
            for text in ["\(value)", String(format: "%.17g", value), String(format: "%.16g", value)] {
                try expectSameAsStrtod(text)
            }
        }
    }

    @Test func longMantissasAtEveryExponentAreReadAsStrtodReadsThem() throws {
        var rng = SeededGenerator(seed: 12)
        for _ in 0..<100_000 {
            let digits = Int.random(in: 15...19, using: &rng)
            let mantissa = String(Int.random(in: 1...9, using: &rng)) + (1..<digits).map { _ in String(Int.random(in: 0...9, using: &rng)) }.joined()
            let point = Int.random(in: 1..<digits, using: &rng)
            let text = "\(mantissa.prefix(point)).\(mantissa.dropFirst(point))e\(Int.random(in: -80...80, using: &rng))"
            try expectSameAsStrtod(text)
            try expectSameAsStrtod("-" + text)
        }
    }

    @Test func halfwayAndBoundaryNumbersAreRoundedAsStrtodRoundsThem() throws {
        let texts = ["9007199254740993", "9007199254740995", "9007199254740997", "18014398509481986", "18014398509481990",
                     "2.2250738585072014e-308", "2.2250738585072011e-308", "1.7976931348623157e308", "1.7976931348623159e308",
                     "4.9406564584124654e-324", "0.30000000000000004", "1e23", "8.98846567431158e307", "9999999999999999999",
                     "1.00000000000000011102230246251565404236316680908203125", "7.2057594037927933e16", "-0.0", "0e10",
                     "52.520008000000004", "123456789012345678e-30", "5e-64", "1.7976931348623157e-64", "9.999999999999999e63"]
        for text in texts { try expectSameAsStrtod(text) }
    }
}
