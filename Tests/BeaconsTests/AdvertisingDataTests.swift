import Testing
import TestSupport
@testable import Beacons

@Suite struct AdvertisingDataTests {
    typealias F = BeaconFrames

    @Test("An iBeacon is found after flags, alone, after a name and after a foreign manufacturer structure",
          arguments: [F.flags, [], F.name, F.foreign])
    func iBeaconInEveryPosition(before: [UInt8]) {
        let (beacons, outcome) = AdvertisingData.beacons(in: before + F.iBeacon(major: 0x0102, minor: 0xFFFE, power: -59))
        #expect(beacons == [Beacon(format: .iBeacon, uuid: F.uuid, major: 0x0102, minor: 0xFFFE, measuredPower: -59,
                                   company: 0x004C)])
        #expect(outcome.malformed == 0)
    }

    @Test("An AltBeacon is found in every position, with any company id, and its reserved byte ignored",
          arguments: [F.flags, [], F.name, F.foreign])
    func altBeaconInEveryPosition(before: [UInt8]) {
        let (beacons, outcome) = AdvertisingData.beacons(in: before + F.altBeacon(company: 0xABCD))
        #expect(beacons == [Beacon(format: .altBeacon, uuid: F.uuid, major: 3, minor: 4, measuredPower: -65,
                                   company: 0xABCD)])
        #expect(outcome.malformed == 0)
    }

    @Test("Two beacons in one frame are both found, in the order they stand")
    func twoInOneFrame() {
        let (beacons, _) = AdvertisingData.beacons(in: F.flags + F.altBeacon() + F.foreign + F.iBeacon())
        #expect(beacons.map(\.format) == [.altBeacon, .iBeacon])
    }

    @Test("The UUID prints lowercase whatever case it was written in, and parses as the same 128-bit value")
    func uuidCase() {
        #expect(F.uuid.description == "f7826da6-4fa2-4e98-8024-bc5b71e0893e")
        #expect(BeaconUUID(F.uuidText.lowercased()) == F.uuid)
        #expect(BeaconUUID("F7826DA64FA24E988024BC5B71E0893E") == nil)
        #expect(BeaconUUID("F7826DA6-4FA2-4E98-8024-BC5B71E0893G") == nil)
    }

    @Test("A structure running past the end is malformed; the complete beacon before it still counts")
    func overrun() {
        let (beacons, outcome) = AdvertisingData.beacons(in: F.iBeacon() + [0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15, 0x01])
        #expect(beacons.count == 1)
        #expect(outcome.malformed == 1)
    }

    @Test("A beacon cut one byte short at the end of the data is an overrun, not a beacon")
    func truncatedBeacon() {
        let (beacons, outcome) = AdvertisingData.beacons(in: F.flags + F.iBeacon().dropLast())
        #expect(beacons.isEmpty)
        #expect(outcome.malformed == 1)
    }

    @Test("An iBeacon or AltBeacon signature with a value of the wrong length is malformed",
          arguments: [-1, 1])
    func wrongLengths(delta: Int) {
        for frame in [F.iBeacon(), F.altBeacon()] {
            var value = Array(frame.dropFirst(2))
            if delta < 0 { value.removeLast() } else { value.append(0x00) }
            let (beacons, outcome) = AdvertisingData.beacons(in: F.flags + [UInt8(value.count + 1), 0xFF] + value)
            #expect(beacons.isEmpty)
            #expect(outcome.malformed == 1)
        }
    }

    @Test("A lone BE after a company id is a damaged AltBeacon signature, counted as malformed")
    func loneBE() {
        let (beacons, outcome) = AdvertisingData.beacons(in: F.flags + [0x04, 0xFF, 0x18, 0x01, 0xBE] + F.iBeacon())
        #expect(beacons.count == 1)
        #expect(outcome.malformed == 1)
    }

    @Test("Stray bytes after complete structures are malformed, and the beacons before them count")
    func strayBytes() {
        let (beacons, outcome) = AdvertisingData.beacons(in: F.flags + F.iBeacon() + [0xBE])
        #expect(beacons.count == 1)
        #expect(outcome.malformed == 1)
    }

    @Test("A zero length ends the data: padding after it is not read")
    func zeroLengthEnds() {
        let (beacons, outcome) = AdvertisingData.beacons(in: F.iBeacon() + [0x00] + F.altBeacon() + [0xFF, 0xFF])
        #expect(beacons.count == 1)
        #expect(outcome.malformed == 0)
    }

    @Test("Other manufacturers' data, and Apple data that is not an iBeacon, are ignored, not malformed")
    func otherStructures() {
        let appleNearby: [UInt8] = [0x07, 0xFF, 0x4C, 0x00, 0x10, 0x02, 0x0B, 0x00]
        let (beacons, outcome) = AdvertisingData.beacons(in: F.flags + appleNearby + F.foreign + [0x01, 0xFF])
        #expect(beacons.isEmpty)
        #expect(outcome.malformed == 0)
    }

    @Test("100,000 seeded mutations of real frames decode without a crash, and nothing decodes out of bounds")
    func fuzz() {
        var rng = SeededGenerator(seed: 15)
        let seeds = [F.flags + F.iBeacon(), F.name + F.altBeacon(), F.flags + F.altBeacon() + F.iBeacon(), F.foreign]
        var found: [Beacon] = []
        var total = AdvertisingData.Outcome()
        for _ in 0..<100_000 {
            var frame = seeds[Int(rng.next() % UInt64(seeds.count))]
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let at = frame.isEmpty ? 0 : Int(rng.next() % UInt64(frame.count))
                switch rng.next() % 4 {
                case 0 where !frame.isEmpty: frame[at] = UInt8(truncatingIfNeeded: rng.next())
                case 1 where !frame.isEmpty: frame.remove(at: at)
                case 2: frame.insert(UInt8(truncatingIfNeeded: rng.next()), at: at)
                default: frame = Array(frame.prefix(at))
                }
            }
            found.removeAll(keepingCapacity: true)
            let outcome = frame.withUnsafeBufferPointer { AdvertisingData.beacons(in: $0, into: &found) }
            #expect(outcome.beacons == found.count)
            total.beacons += outcome.beacons
            total.malformed += outcome.malformed
        }
        // Mutations leave many frames intact and damage many: both outcomes must have occurred.
        #expect(total.beacons > 10_000)
        #expect(total.malformed > 10_000)
    }
}
