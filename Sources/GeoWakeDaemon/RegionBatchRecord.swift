import GRDB
import GRDBSQLite

/// A row of `regionBatch`: the geographic regions one `monitor` added, in the rows `firstRow ..< firstRow + count`
/// (a region's row is what its state is stored under), with their ids and their feature texts as the client wrote
/// them, one after another. A region's state is its row's in `regionState`, else its batch's: the fix after a
/// `monitor` decides all of its regions outside at once, one update of the batch instead of a thousand rows. A region
/// removed since has its row in `regionRemoved`; the batch goes with its last region, and its states and removals
/// with it (the trigger). The tables are made by migration `v28-region-batches`.
struct RegionBatchRecord {
    var firstRow: Int64
    var owner: ClientKey
    /// Each id followed by a newline: an id has no control characters (`DaemonCore.checkRegionID`).
    var ids: [UInt8] = []
    /// Where each feature's text ends in `features`, as 4-byte little-endian offsets.
    var ends: [UInt8] = []
    var features: [UInt8] = []
    var count = 0

    init(firstRow: Int64, owner: ClientKey) {
        (self.firstRow, self.owner) = (firstRow, owner)
    }

    /// Room for these ids and texts at once: grown region by region, a thousand texts were copied a dozen times over.
    mutating func reserveCapacity(ids: [String], features: [String]) {
        self.ids.reserveCapacity(ids.reduce(0) { $0 + $1.utf8.count + 1 })
        self.features.reserveCapacity(features.reduce(0) { $0 + $1.utf8.count })
        ends.reserveCapacity(4 * features.count)
    }

    mutating func append(id: String, feature: String) {
        ids += id.utf8
        ids.append(UInt8(ascii: "\n"))
        features += feature.utf8
        withUnsafeBytes(of: UInt32(features.count).littleEndian) { ends += $0 }
        count += 1
    }

    func insert(_ db: Database) throws {
        _ = try features.withUnsafeBytes { features in
            try db.raw("INSERT INTO regionBatch (firstRow, uid, clientID, count, ids, ends, features) VALUES (?, ?, ?, ?, ?, ?, ?)")
                .bind(1, firstRow).bind(2, owner.uid).bind(3, owner.clientID).bind(4, Int64(count))
                .bind(5, bytes: ids).bind(6, bytes: ends).bind(7, borrowing: features).run()
        }
    }
}

/// A stored batch's columns as SQLite hands them (valid until the statement steps on): a region's id and text by
/// its place in the batch.
struct StoredRegionBatchColumns {
    let firstRow: Int64
    let count: Int
    private let ids: UnsafeRawBufferPointer
    private let ends: UnsafeRawBufferPointer
    let features: UnsafeRawBufferPointer

    /// Reads the statement's first columns, `firstRow, count, ids, ends, features`, of its current row.
    init(_ handle: SQLiteStatement) {
        func blob(_ column: Int32) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(start: sqlite3_column_blob(handle, column), count: Int(sqlite3_column_bytes(handle, column)))
        }
        firstRow = sqlite3_column_int64(handle, 0)
        count = Int(sqlite3_column_int64(handle, 1))
        (ids, ends, features) = (blob(2), blob(3), blob(4))
    }

    /// Where the text of the region at `index` lies in `features`.
    func featureRange(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : end(index - 1))..<end(index)
    }

    private func end(_ index: Int) -> Int {
        Int(UInt32(littleEndian: ends.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self)))
    }

    /// Calls `body` with each region's place and id, in order.
    func forEachID(_ body: (Int, String) throws -> Void) rethrows {
        var index = 0, start = 0
        for (offset, byte) in ids.enumerated() where byte == UInt8(ascii: "\n") {
            try body(index, String(decoding: UnsafeRawBufferPointer(rebasing: ids[start..<offset]), as: UTF8.self))
            index += 1
            start = offset + 1
        }
    }
}
