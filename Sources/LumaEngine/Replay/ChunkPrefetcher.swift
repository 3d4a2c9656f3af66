import Dispatch
import LumaFormat
import Synchronization

/// Decodes the chunks of a replay on a background thread, up to `depth` ahead of the consumer,
/// so analyzers never wait for zstd. Results come back in chunk order whatever the timing.
///
/// The state lives in a ``Mutex``; the two threads wait for each other on semaphores: the
/// consumer for a chunk to be `decoded`, the decoder for `room` (`depth` at the start, one more for
/// every chunk taken, and one when the replay cancels, so a waiting decoder wakes to stop).
final class ChunkPrefetcher: Sendable {
    private struct State {
        var ready: [Int: Result<DecodedChunk, LumaFormatError>] = [:]
        var cancelled = false
        /// Consumed chunks whose storage the decoder may reuse.
        var returned: [DecodedChunk] = []
    }

    private let state = Mutex(State())
    /// Signalled once per chunk decoded (its result is in `ready`).
    private let decoded = DispatchSemaphore(value: 0)
    /// Signalled once per chunk the decoder may start.
    private let room = DispatchSemaphore(value: 0)

    init(reader: RecordingReader, chunks: [ChunkEntry], depth: Int = 2) {
        // Semaphores start at 0 and are signalled up: libdispatch traps when one is freed below
        // the value it was created with.
        for _ in 0..<depth { room.signal() }
        DispatchQueue.global().async { [self] in
            let decoder = reader.makeDecoder()
            for (i, entry) in chunks.enumerated() {
                room.wait()
                let recycled = state.withLock { state -> [DecodedChunk]? in
                    guard !state.cancelled else { return nil }
                    defer { state.returned.removeAll() }
                    return state.returned
                }
                guard let recycled else { return }
                for chunk in recycled { decoder.recycle(chunk) }
                let result: Result<DecodedChunk, LumaFormatError>
                do throws(LumaFormatError) { result = .success(try decoder.decode(entry)) } catch { result = .failure(error) }
                state.withLock { $0.ready[i] = result }
                decoded.signal()
            }
        }
    }

    /// The `i`-th chunk's decode result; chunks must be taken in order.
    func take(_ i: Int) -> Result<DecodedChunk, LumaFormatError> {
        decoded.wait()
        let result = state.withLock { $0.ready.removeValue(forKey: i)! }
        room.signal()
        return result
    }

    /// Hands a consumed chunk's storage back to the decoding thread for reuse.
    func recycle(_ chunk: DecodedChunk) {
        state.withLock { $0.returned.append(chunk) }
    }

    func cancel() {
        state.withLock { $0.cancelled = true }
        room.signal()
    }
}
