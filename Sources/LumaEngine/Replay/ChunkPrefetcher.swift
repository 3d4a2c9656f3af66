import Foundation
import LumaFormat
import LumaProcess

/// Decodes the chunks of a replay on a worker thread of its own, up to `depth` ahead of the
/// consumer, so analyzers never wait for zstd. Results come back in chunk order whatever the
/// timing. Nobody waits for the thread: it ends after the last chunk, or at its next step once
/// cancelled.
final class ChunkPrefetcher: @unchecked Sendable {
    private let condition = ConditionLock()
    private var ready: [Int: Result<DecodedChunk, LumaFormatError>] = [:]
    private var nextToTake = 0
    private var cancelled = false
    private var returned: [DecodedChunk] = []
    private let depth: Int

    init(reader: RecordingReader, chunks: [ChunkEntry], depth: Int = 2) {
        self.depth = depth
        let entries = chunks
        WorkerThread.detach("chunk decoder") { [self] in
            let decoder = reader.makeDecoder()
            for (i, entry) in entries.enumerated() {
                condition.wait(until: { cancelled || i < nextToTake + depth })
                if condition.locked({ cancelled }) { return }
                for chunk in condition.locked({ () -> [DecodedChunk] in defer { returned.removeAll() }; return returned }) {
                    decoder.recycle(chunk)
                }
                let result: Result<DecodedChunk, LumaFormatError>
                do throws(LumaFormatError) { result = .success(try decoder.decode(entry)) } catch { result = .failure(error) }
                condition.locked { ready[i] = result }
                condition.broadcast()
            }
        }
    }

    /// The `i`-th chunk's decode result; chunks must be taken in order.
    func take(_ i: Int) -> Result<DecodedChunk, LumaFormatError> {
        condition.wait(until: { ready[i] != nil })
        let r = condition.locked { () -> Result<DecodedChunk, LumaFormatError> in
            nextToTake = i + 1
            return ready.removeValue(forKey: i)!
        }
        condition.broadcast()
        return r
    }

    /// Hands a consumed chunk's storage back to the decoding thread for reuse.
    func recycle(_ chunk: DecodedChunk) {
        condition.locked { returned.append(chunk) }
    }

    func cancel() {
        condition.locked { cancelled = true }
        condition.broadcast()
    }
}

/// A lock with a condition to wait on (Foundation's `NSCondition`, which keeps its pthread mutex and
/// condition at a stable address).
final class ConditionLock: @unchecked Sendable {
    private let condition = NSCondition()

    func locked<R>(_ body: () -> R) -> R {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    /// Blocks until `predicate` (evaluated under the lock) holds.
    func wait(until predicate: () -> Bool) {
        condition.lock()
        while !predicate() { condition.wait() }
        condition.unlock()
    }

    func broadcast() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }
}
