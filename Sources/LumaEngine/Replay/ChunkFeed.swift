import LumaFormat

/// The decoded chunks a replay walks, in order: decoded on the replay's thread, or ahead of it on a
/// thread of its own (``ChunkPrefetcher``). The first can be looked at before the walk starts (the
/// stream is named by its first frame) and is then handed to the walk as it is: no chunk is
/// decoded twice.
final class ChunkFeed {
    /// The chunks, in the order ``take(_:)`` hands them out.
    let chunks: [ChunkEntry]
    private let prefetcher: ChunkPrefetcher?
    private let decoder: ChunkDecoder
    /// The first chunk, decoded before the walk asked for it.
    private var first: Result<DecodedChunk, LumaFormatError>?

    /// `chunks` of `reader`, decoded ahead on a thread of its own when `ahead`.
    init(_ reader: RecordingReader, chunks: [ChunkEntry], ahead: Bool) {
        self.chunks = chunks
        prefetcher = ahead ? ChunkPrefetcher(reader: reader, chunks: chunks) : nil
        decoder = reader.makeDecoder()
    }

    deinit { prefetcher?.cancel() }

    /// The first chunk's decode result, kept for ``take(_:)``; `nil` when there are no chunks.
    func peekFirst() -> Result<DecodedChunk, LumaFormatError>? {
        guard !chunks.isEmpty else { return nil }
        if first == nil { first = decode(0) }
        return first
    }

    /// The `i`-th chunk's decode result; chunks must be taken in order, each once.
    func take(_ i: Int) -> Result<DecodedChunk, LumaFormatError> {
        if i == 0, let first {
            self.first = nil
            return first
        }
        return decode(i)
    }

    /// Gives a chunk's storage back for decoding the next ones.
    func recycle(_ chunk: DecodedChunk) {
        if let prefetcher { prefetcher.recycle(chunk) } else { decoder.recycle(chunk) }
    }

    private func decode(_ i: Int) -> Result<DecodedChunk, LumaFormatError> {
        if let prefetcher { return prefetcher.take(i) }
        do throws(LumaFormatError) { return .success(try decoder.decode(chunks[i])) } catch { return .failure(error) }
    }
}
