/// Finds every intact chunk of a recording that has no usable index (the recorder was killed, the
/// disk filled up, or the index is damaged), and describes what lies between them.
///
/// Records are checked by their CRC before they are believed. After damage the scanner searches
/// forward for the next record magic whose envelope checks out, so one bad chunk costs only its own
/// frames.
struct RecordingScanner {
    let file: FileHandleIO
    let fileSize: UInt64
    let frameSize: Int

    struct Result {
        var chunks: [ChunkEntry] = []
        var damage: [RecordingDamage] = []
    }

    func scan(from start: UInt64) -> Result {
        var result = Result()
        var position = start
        var nextFrame = 0
        var lastTicks = Int64.min
        var pendingDamage: (start: UInt64, reason: String)?

        func closeDamage(at end: UInt64, nextChunk: ChunkFields?) {
            guard let d = pendingDamage else { return }
            let lastNumber = result.chunks.last?.number ?? -1
            var chunk: Int?
            if let nextChunk, nextChunk.number == lastNumber + 2 { chunk = lastNumber + 1 }
            let frames = nextChunk.map { nextFrame..<max(nextFrame, $0.firstFrame) }
            result.damage.append(RecordingDamage(chunk: chunk, frames: frames, bytes: d.start..<end, reason: d.reason))
            pendingDamage = nil
        }

        while position < fileSize {
            if fileSize - position == UInt64(Trailer.size),
               let bytes = try? file.read(at: position, count: Trailer.size), Trailer.indexOffset(from: bytes) != nil {
                break
            }
            switch RecordingReader.readRecord(file, at: position, fileSize: fileSize) {
            case .success(let r):
                if r.kind == .chunk, case .success(let fields) = ChunkFields.parse(r.fields, frameSize: frameSize),
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
                    if pendingDamage == nil { pendingDamage = (position, "a chunk header declares impossible frames or timestamps") }
                    position = nextCandidate(after: position)
                } else {
                    position = r.end  // index or a stray reference copy: nothing to recover from it
                }
            case .failure(.endOfFile):
                let next = nextCandidate(after: position)
                if next >= fileSize && pendingDamage == nil {
                    // An interrupted write: the normal end of a recording that was never closed.
                    result.damage.append(RecordingDamage(chunk: (result.chunks.last?.number ?? -1) + 1, frames: nil, bytes: position..<fileSize,
                                                         reason: "incomplete chunk at the end of the file (recording was interrupted); earlier chunks are intact"))
                } else if pendingDamage == nil {
                    pendingDamage = (position, "a record declares more bytes than the file holds")
                }
                position = next
            case .failure(let problem):
                if pendingDamage == nil { pendingDamage = (position, problem.description) }
                position = nextCandidate(after: position)
            }
        }
        closeDamage(at: fileSize, nextChunk: nil)
        return result
    }

    /// Offset of the next place after `position` where a chunk or index magic appears, or the file size.
    /// Reads in blocks that start small and double (up to 1 MiB), so the cost follows the distance
    /// to the next candidate: a hostile file packed with near-miss records costs a few KiB per
    /// record, not a megabyte each.
    private func nextCandidate(after position: UInt64) -> UInt64 {
        var block = 4096
        var offset = position + 1
        let chunkMagic = RecordKind.chunk.magic, indexMagic = RecordKind.index.magic
        while offset < fileSize {
            let count = Int(min(UInt64(block + 3), fileSize - offset))
            guard count >= 4, let bytes = try? file.read(at: offset, count: count) else { return fileSize }
            for i in 0...(count - 4) where bytes[i] == chunkMagic[0] || bytes[i] == indexMagic[0] {
                let candidate = bytes[i..<i + 4]
                if candidate.elementsEqual(chunkMagic) || candidate.elementsEqual(indexMagic) {
                    let at = offset + UInt64(i)
                    if case .success = RecordingReader.readRecord(file, at: at, fileSize: fileSize) { return at }
                }
            }
            offset += UInt64(block)
            block = min(2 * block, 1 << 20)
        }
        return fileSize
    }
}
