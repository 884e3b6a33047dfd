/// A dictionary that remembers the keys written since they were last taken, so that the launcher's `persist()`
/// compares only the rows a turn touched: with every row compared, each new client cost a pass over all of them.
struct ChangeTrackingDictionary<Key: Hashable, Value> {
    private(set) var values: [Key: Value] = [:]
    private(set) var changedKeys: Set<Key> = []

    subscript(key: Key) -> Value? {
        get { values[key] }
        set {
            values[key] = newValue
            changedKeys.insert(key)
        }
    }

    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        changedKeys.insert(key)
        return values.removeValue(forKey: key)
    }

    /// Forgets the written keys, once what they changed is saved.
    mutating func forgetChanges() { changedKeys = [] }
}
