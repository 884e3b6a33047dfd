import CNATS

/// `natsSubscription_Fetch` made safe for libnats 3.4. Its fetch first takes the messages already waiting
/// (the rest of an earlier fetch that timed out), then asks the server for the batch less those, and collects
/// until its count *equals* that smaller number: having taken more than half the batch, it never does, and
/// writes every message arriving before the timeout past the end of its list (heap corruption, then an abort
/// in `natsMsgList_Destroy`; fixed in nats.c 3.8.3). `fleet drain`, which does nothing between fetches,
/// aborted so in about every other read of 24,000 messages. So when messages are waiting, the batch is more
/// than twice their number: the count then starts below the smaller number and stops at it, within the list.
/// That is not proof against messages arriving between the count and the fetch (back-to-back 1 ms fetches still
/// aborted 1 time in 6 with it), so partitions no longer fetch through libnats (`PartitionSubscription.read`);
/// the events reader, whose 500 ms fetches rarely end before their batch has come, still does.
func pullFetch(_ list: inout natsMsgList, _ subscription: OpaquePointer, batch: Int, timeoutMilliseconds: Int64) -> natsStatus {
    var asked = batch
    var waiting: Int32 = 0
    if natsSubscription_GetPending(subscription, &waiting, nil) == NATS_OK, waiting > 0 {
        asked = max(asked, 2 * Int(waiting) + 2)
    }
    var code = jsErrCode(0)
    return natsSubscription_Fetch(&list, subscription, Int32(asked), timeoutMilliseconds, &code)
}
