import GRDB

/// The store's one migrator: named, append-only migrations in the order every store was migrated in (a store
/// written by an earlier daemon applies only those it lacks). Each comment says why its change was made.
extension DaemonStore {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-clients-regions-outbox") { db in
            try db.execute(sql: """
                CREATE TABLE client (
                    uid INTEGER NOT NULL, clientID TEXT NOT NULL, launch TEXT, options TEXT,
                    disabled INTEGER NOT NULL DEFAULT 0, lastSeq INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (uid, clientID));
                CREATE TABLE subscription (
                    uid INTEGER NOT NULL, clientID TEXT NOT NULL, kind TEXT NOT NULL, options TEXT NOT NULL,
                    PRIMARY KEY (uid, clientID, kind));
                CREATE TABLE region (
                    uid INTEGER NOT NULL, clientID TEXT NOT NULL, regionID TEXT NOT NULL, feature TEXT NOT NULL,
                    state TEXT NOT NULL DEFAULT 'unknown', since INTEGER,
                    PRIMARY KEY (uid, clientID, regionID));
                CREATE TABLE outbox (
                    uid INTEGER NOT NULL, clientID TEXT NOT NULL, seq INTEGER NOT NULL, event TEXT NOT NULL,
                    created INTEGER NOT NULL,
                    PRIMARY KEY (uid, clientID, seq));
                CREATE TABLE source (
                    description TEXT PRIMARY KEY, position INTEGER NOT NULL);
                """)
        }
        // The pending limit's books: a client's pending count is `lastSeq - ackedThrough` (sequence numbers are
        // gapless), so admitting an event reads one row instead of counting the outbox.
        migrator.registerMigration("v2-serve-pending-limit") { db in
            try db.execute(sql: """
                ALTER TABLE client ADD COLUMN ackedThrough INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE client ADD COLUMN dropped INTEGER NOT NULL DEFAULT 0;
                UPDATE client SET ackedThrough = lastSeq - (SELECT COUNT(*) FROM outbox
                    WHERE outbox.uid = client.uid AND outbox.clientID = client.clientID);
                """)
        }
        // Detector memories, stored with the events that changed them.
        migrator.registerMigration("v2-serve-service-memory") { db in
            try db.execute(sql: "ALTER TABLE subscription ADD COLUMN memory TEXT")
        }
        // Each client's lifecycle record and process, so a daemon killed while a client is suspended finds it again.
        migrator.registerMigration("v2-wake-app-state") { db in
            try db.execute(sql: """
                CREATE TABLE app (
                    uid INTEGER NOT NULL, clientID TEXT NOT NULL, gid INTEGER NOT NULL, record TEXT NOT NULL,
                    pid INTEGER, startTime INTEGER,
                    PRIMARY KEY (uid, clientID));
                """)
        }
        // Region rules in the client's row, so `unregister` forgets them with the client.
        migrator.registerMigration("v22-rules-client-region-rules") { db in
            try db.execute(sql: "ALTER TABLE client ADD COLUMN regionRules TEXT")
        }
        // A region's dwell is sent once per stay, across restarts.
        migrator.registerMigration("v23-dwell-sent") { db in
            try db.execute(sql: "ALTER TABLE region ADD COLUMN dwellSent INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v21-beacons-regions-ranging") { db in
            try db.execute(sql: """
                CREATE TABLE beaconRegion (
                    uid INTEGER NOT NULL, clientID TEXT NOT NULL, regionID TEXT NOT NULL, feature TEXT NOT NULL,
                    since INTEGER, lastSeen INTEGER, beacon TEXT,
                    PRIMARY KEY (uid, clientID, regionID));
                CREATE TABLE beaconRanging (
                    uid INTEGER NOT NULL, clientID TEXT NOT NULL, constraintKey TEXT NOT NULL,
                    uuid TEXT NOT NULL, major INTEGER, minor INTEGER,
                    PRIMARY KEY (uid, clientID, constraintKey));
                """)
        }
        // The outbox as a WITHOUT ROWID table: a rowid table with a (uid, clientID, seq) primary key keeps the key in
        // a second B-tree, so every queued event and every ack wrote a page of each; keyed by the primary key alone
        // they write one.
        migrator.registerMigration("v20-latency-outbox-without-rowid") { db in
            // Rebuilt from the table's own CREATE statement, so that columns added by earlier migrations come along.
            guard let create = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'outbox'"),
                  let name = create.range(of: "CREATE TABLE outbox") else { return }
            try db.execute(sql: create.replacingCharacters(in: name, with: "CREATE TABLE outbox_rekeyed") + " WITHOUT ROWID")
            try db.execute(sql: """
                INSERT INTO outbox_rekeyed SELECT * FROM outbox;
                DROP TABLE outbox;
                ALTER TABLE outbox_rekeyed RENAME TO outbox;
                """)
        }
        // The store epoch (`DaemonStore+Epoch.swift`), carried by every event.
        migrator.registerMigration("v25-store-epoch") { db in
            try db.execute(sql: """
                CREATE TABLE storeEpoch (value INTEGER NOT NULL);
                INSERT INTO storeEpoch (value) VALUES (0);
                ALTER TABLE outbox ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
                """)
        }
        // The row `sync()` changes, so that its commit has something to sync.
        migrator.registerMigration("v26-sync-mark") { db in
            try db.execute(sql: "CREATE TABLE syncMark (value INTEGER NOT NULL); INSERT INTO syncMark (value) VALUES (0)")
        }
        // Region states in a table of their own, keyed by the region's rowid: a state change rewrote the region's row
        // with its feature text, so the fix after a `monitor` wrote all of its rows a second time (6 times the cost of
        // a small row). No row means unknown; a region's state row goes with it (the trigger: a rowid may be reused).
        migrator.registerMigration("v27-region-state-table") { db in
            try db.execute(sql: """
                CREATE TABLE regionState (
                    row INTEGER PRIMARY KEY, state TEXT NOT NULL, since INTEGER, dwellSent INTEGER NOT NULL DEFAULT 0);
                INSERT INTO regionState (row, state, since, dwellSent)
                    SELECT rowid, state, since, dwellSent FROM region
                    WHERE state != 'unknown' OR since IS NOT NULL OR dwellSent != 0;
                ALTER TABLE region DROP COLUMN state;
                ALTER TABLE region DROP COLUMN since;
                ALTER TABLE region DROP COLUMN dwellSent;
                CREATE TRIGGER regionDeleted AFTER DELETE ON region BEGIN DELETE FROM regionState WHERE row = old.rowid; END;
                """)
        }
        // A `monitor`'s regions in one row (`RegionBatchRecord`): their ids, and their feature texts one after another.
        // A row per region cost SQLite more than all else a `monitor` of a thousand regions did (its key's index
        // above all); the daemon finds a region's row in memory, so only the owner needs an index. Each run of one
        // owner's consecutive rowids becomes a batch, keeping the rowids the states are stored under.
        migrator.registerMigration("v28-region-batches") { db in
            try db.execute(sql: """
                CREATE TABLE regionBatch (
                    firstRow INTEGER PRIMARY KEY, uid INTEGER NOT NULL, clientID TEXT NOT NULL, count INTEGER NOT NULL,
                    ids BLOB NOT NULL, ends BLOB NOT NULL, features BLOB NOT NULL,
                    state TEXT NOT NULL DEFAULT 'unknown', since INTEGER, dwellSent INTEGER NOT NULL DEFAULT 0);
                CREATE INDEX regionBatchOwner ON regionBatch (uid, clientID);
                CREATE TABLE regionRemoved (row INTEGER PRIMARY KEY);
                CREATE TRIGGER regionBatchDeleted AFTER DELETE ON regionBatch BEGIN
                    DELETE FROM regionState WHERE row BETWEEN old.firstRow AND old.firstRow + old.count - 1;
                    DELETE FROM regionRemoved WHERE row BETWEEN old.firstRow AND old.firstRow + old.count - 1;
                END;
                """)
            var batch: RegionBatchRecord?
            let rows = try Row.fetchCursor(db, sql: "SELECT rowid, uid, clientID, regionID, feature FROM region ORDER BY rowid")
            while let row = try rows.next() {
                let rowid: Int64 = row[0], owner = ClientKey(uid: UInt32(row[1] as Int64), clientID: row[2])
                if let last = batch, last.owner != owner || last.firstRow + Int64(last.count) != rowid {
                    try last.insert(db)
                    batch = nil
                }
                if batch == nil { batch = RegionBatchRecord(firstRow: rowid, owner: owner) }
                batch!.append(id: row[3], feature: row[4])
            }
            try batch?.insert(db)
            try db.execute(sql: "DROP TRIGGER regionDeleted; DROP TABLE region")
        }
        return migrator
    }
}
