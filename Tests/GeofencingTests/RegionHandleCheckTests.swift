import Testing
import GeoWakeCore
import RegionIndex
import Regions

/// A handle is good only in the index that gave it out: used elsewhere it stops the process with a message
/// (a precondition), where it used to read past the end of the store's arrays or answer "outside".
@Suite struct RegionHandleCheckTests {
    static func circle(_ id: String) -> Region {
        Region(id: id, shape: .circle(center: Coordinate(latitude: 52.52, longitude: 13.40), radius: 100))
    }

    @Test func aHandleBeyondTheIndexStopsContainment() async {
        await #expect(processExitsWith: .failure) {
            let larger = try RegionIndex(regions: [RegionHandleCheckTests.circle("a"), RegionHandleCheckTests.circle("b")])
            let smaller = try RegionIndex(regions: [RegionHandleCheckTests.circle("a")])
            let handle = larger.handle(forID: "b")!
            _ = smaller.contains(handle, Coordinate(latitude: 52.52, longitude: 13.40))
        }
    }

    @Test func aHandleBeyondTheIndexStopsAttributeLookups() async {
        await #expect(processExitsWith: .failure) {
            let larger = try RegionIndex(regions: [RegionHandleCheckTests.circle("a"), RegionHandleCheckTests.circle("b")])
            let smaller = try RegionIndex(regions: [RegionHandleCheckTests.circle("a")])
            _ = smaller.attributes(of: larger.handle(forID: "b")!)
        }
    }

    // Both indexes have a slot 0: only the store identity inside the handle tells them apart.
    @Test func aHandleOfAnotherIndexWithinRangeStopsContainment() async {
        await #expect(processExitsWith: .failure) {
            let first = try RegionIndex(regions: [RegionHandleCheckTests.circle("a")])
            let second = try RegionIndex(regions: [RegionHandleCheckTests.circle("b")])
            _ = second.contains(first.handle(forID: "a")!, Coordinate(latitude: 52.52, longitude: 13.40))
        }
    }

    @Test func aStoreOwnsItsHandlesAndThoseOfItsCopiesButNotAnotherStores() throws {
        let first = try RegionIndex(regions: [Self.circle("a")])
        let second = try RegionIndex(regions: [Self.circle("a")])
        let a = try #require(first.handle(forID: "a"))
        var copy = first
        try copy.add(Self.circle("b"))
        #expect(first.store.owns(a) && copy.store.owns(a))
        #expect(!second.store.owns(a))
        #expect(second.handle(forID: "a") != a, "equal ids in two stores are two handles")
        #expect(first.store.handles == [a] && copy.store.handles.count == 2)
    }

    @Test func theIndexsOwnHandlesAnswer() throws {
        let index = try RegionIndex(regions: [Self.circle("a"), Self.circle("b")])
        let b = try #require(index.handle(forID: "b"))
        #expect(index.contains(b, Coordinate(latitude: 52.52, longitude: 13.40)))
        #expect(index.attributes(of: b).id == "b")
    }
}
