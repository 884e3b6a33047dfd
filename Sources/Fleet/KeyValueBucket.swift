import CNATS

/// One JetStream key-value bucket.
final class KeyValueBucket {
    let store: OpaquePointer
    let name: String
    private let jetStream: OpaquePointer

    /// Opens the bucket, creating it as configured when it does not exist yet.
    init(_ connection: NATSConnection, name: String, history: UInt8 = 1, ttlMilliseconds: Int64 = 0,
         replicas: Int, maxValueSize: Int32 = -1) throws(NATSError) {
        var store: OpaquePointer?
        if js_KeyValue(&store, connection.jetStream, name) != NATS_OK {
            var config = kvConfig()
            kvConfig_Init(&config)
            let status = name.withCString { bucket in
                config.Bucket = bucket
                config.History = history
                config.TTL = ttlMilliseconds * 1_000_000   // nanoseconds, as the server takes it
                config.Replicas = Int32(replicas)
                config.MaxValueSize = maxValueSize
                config.StorageType = js_FileStorage
                return js_CreateKeyValue(&store, connection.jetStream, &config)
            }
            try check(status, "creating the key-value bucket \(name)")
        }
        self.store = store!
        self.name = name
        jetStream = connection.jetStream
    }

    deinit { kvStore_Destroy(store) }

    struct Entry {
        var value: [UInt8]
        var revision: UInt64
    }

    /// The key's current value; nil when it is absent, deleted or expired.
    func get(_ key: String) throws(NATSError) -> Entry? {
        var entry: OpaquePointer?
        let status = kvStore_Get(&entry, store, key)
        if status == NATS_NOT_FOUND { return nil }
        try check(status, "reading \(key)")
        defer { kvEntry_Destroy(entry) }
        return Self.entry(entry!)
    }

    func get(_ key: String, revision: UInt64) throws(NATSError) -> Entry? {
        var entry: OpaquePointer?
        let status = kvStore_GetRevision(&entry, store, key, revision)
        if status == NATS_NOT_FOUND { return nil }
        try check(status, "reading \(key) at revision \(revision)")
        defer { kvEntry_Destroy(entry) }
        return Self.entry(entry!)
    }

    static func entry(_ entry: OpaquePointer) -> Entry {
        let count = Int(kvEntry_ValueLen(entry))
        let value = kvEntry_Value(entry).map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
        return Entry(value: value, revision: kvEntry_Revision(entry))
    }

    @discardableResult
    func put(_ key: String, _ value: [UInt8]) throws(NATSError) -> UInt64 {
        var revision: UInt64 = 0
        try check(value.withUnsafeBytes { kvStore_Put(&revision, store, key, $0.baseAddress, Int32($0.count)) }, "writing \(key)")
        return revision
    }

    /// Writes only if the key does not exist; nil when it does (someone else holds it).
    func create(_ key: String, _ value: [UInt8]) throws(NATSError) -> UInt64? {
        var revision: UInt64 = 0
        let status = value.withUnsafeBytes { kvStore_Create(&revision, store, key, $0.baseAddress, Int32($0.count)) }
        if status == NATS_ERR { return nil }   // wrong last sequence: the key exists
        try check(status, "creating \(key)")
        return revision
    }

    /// Writes only if the key is still at `last`; nil when it moved on (someone else wrote it, or it expired).
    func update(_ key: String, _ value: [UInt8], last: UInt64) throws(NATSError) -> UInt64? {
        var revision: UInt64 = 0
        let status = value.withUnsafeBytes { kvStore_Update(&revision, store, key, $0.baseAddress, Int32($0.count), last) }
        if status == NATS_ERR { return nil }
        try check(status, "updating \(key)")
        return revision
    }

    func delete(_ key: String) throws(NATSError) {
        try check(kvStore_Delete(store, key), "deleting \(key)")
    }
}

extension KeyValueBucket {
    /// How many keys under `prefix` hold a value or a recent delete marker, from the stream's subject
    /// counts: a listing through a watcher would create a consumer each time.
    func keyCount(prefix: String) throws(NATSError) -> Int {
        var options = jsOptions()
        jsOptions_Init(&options)
        var info: UnsafeMutablePointer<jsStreamInfo>?
        var code = jsErrCode(0)
        let status = "$KV.\(name).\(prefix)>".withCString { filter in
            options.Stream.Info.SubjectsFilter = filter
            return js_GetStreamInfo(&info, jetStream, "KV_\(name)", &options, &code)
        }
        try check(status, "counting the keys \(prefix)* of \(name)")
        defer { jsStreamInfo_Destroy(info) }
        return Int(info!.pointee.State.Subjects?.pointee.Count ?? 0)
    }
}
