import GRDB

/// The outbox as a WITHOUT ROWID table: a rowid table with a (uid, clientID, seq) primary key keeps the key in a
/// second B-tree, so every queued event and every ack wrote a page of each; keyed by the primary key alone they
/// write one.
enum OutboxTable {
    static let withoutRowIDMigration = "v20-latency-outbox-without-rowid"

    static func registerMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration(withoutRowIDMigration) { db in
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
    }
}
