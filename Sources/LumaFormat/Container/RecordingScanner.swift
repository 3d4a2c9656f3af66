/// Finds every intact chunk of a recording that has no usable index (the recorder was killed, the
/// disk filled up, or the index is damaged), and describes what lies between them.
///
/// Records are checked by their CRC before they are believed. After damage the scanner searches
/// forward for the next record magic whose envelope checks out, so one bad chunk costs only its own
/// frames.
struct RecordingScanner {
    let file: any ByteSource
    let fileSize: UInt64
    let layout: PayloadLayout

    struct Result {
        var chunks: [ChunkEntry] = []
        var damage: [RecordingDamage] = []
        /// Intact reference-frame records passed on the way (the copies of version 2 after the first
        /// chunk), for a reader whose first copies are damaged.
        var references: [RecordLocation] = []
        /// Chunk records whose envelope is intact, whether their fields fit the header or not.
        var chunkRecords = 0
    }

    func scan(from start: UInt64) -> Result {
        var result = Result()
        var position = start
        var nextFrame = 0
        var lastTicks = Int64.min
        var pendingDamage: (start: UInt64, cause: DamageCause)?

        func closeDamage(at end: UInt64, nextChunk: ChunkFields?) {
            guard let d = pendingDamage else { return }
            let lastNumber = result.chunks.last?.number ?? -1
            var chunk: Int?
            if let nextChunk, nextChunk.number == lastNumber + 2 { chunk = lastNumber + 1 }
            let frames = nextChunk.map { nextFrame..<max(nextFrame, $0.firstFrame) }
            result.damage.append(RecordingDamage(chunk: chunk, frames: frames, bytes: d.start..<end, cause: d.cause))
            pendingDamage = nil
        }

        while position < fileSize {
            if isTrailer(at: position) { break }
            switch RecordingReader.readRecord(file, at: position, fileSize: fileSize) {
            case .success(let r):
                if r.kind == .chunk { result.chunkRecords += 1 }
                if r.kind == .chunk, case .success(let fields) = ChunkFields.parse(r.fields, layout: layout),
                   fields.firstFrame >= nextFrame, fields.timestamps[0] > lastTicks,
                   r.payloadLength > 0 {
                    closeDamage(at: r.offset, nextChunk: fields)
                    result.chunks.append(ChunkEntry(number: fields.number, offset: r.offset, firstFrame: fields.firstFrame,
                                                    frameCount: fields.frameCount, firstTicks: fields.timestamps[0],
                                                    lastTicks: fields.timestamps[fields.frameCount - 1], payloadLength: r.payloadLength))
                    nextFrame = fields.firstFrame + fields.frameCount
                    lastTicks = fields.timestamps[fields.frameCount - 1]
                    position = r.end
                } else if r.kind == .chunk {
                    if pendingDamage == nil { pendingDamage = (position, .impossibleChunkHeader) }
                    position = nextCandidate(after: position)
                } else {
                    // An index, or a copy of the header or reference frame: no frames in it.
                    if r.kind == .reference { result.references.append(r) }
                    position = r.end
                }
            case .failure(.endOfFile):
                let next = nextCandidate(after: position)
                if next >= fileSize && pendingDamage == nil {
                    // An interrupted write: the normal end of a recording that was never closed.
                    result.damage.append(RecordingDamage(chunk: (result.chunks.last?.number ?? -1) + 1, frames: nil, bytes: position..<fileSize,
                                                         cause: .interruptedWrite))
                } else if pendingDamage == nil {
                    pendingDamage = (position, .recordOverrunsFile)
                }
                position = next
            case .failure(let problem):
                if pendingDamage == nil { pendingDamage = (position, .record(problem)) }
                position = nextCandidate(after: position)
            }
        }
        closeDamage(at: fileSize, nextChunk: nil)
        return result
    }

    /// Whether the file ends at `position` with a trailer (pointing at an index).
    private func isTrailer(at position: UInt64) -> Bool {
        guard fileSize - position == UInt64(Trailer.size), let bytes = try? file.read(at: position, count: Trailer.size) else { return false }
        return Trailer.indexOffset(from: bytes) != nil
    }

    /// Offset of the next intact record after `position`, or the file size. Every kind counts, so a
    /// scan that lost its place inside the first chunk still finds the copies of the header and the
    /// reference frame written after it (version 2).
    private func nextCandidate(after position: UInt64) -> UInt64 {
        RecordSearch.next(in: file, fileSize: fileSize, after: position, kinds: Set(RecordKind.allCases))?.offset ?? fileSize
    }
}
