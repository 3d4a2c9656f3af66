import LumaOutput

/// Damage found in a recording: a run of bytes that does not hold intact records, or a chunk
/// whose payload fails its checksum. Frames in `frames` cannot be read.
public struct RecordingDamage: Equatable, Sendable, CustomStringConvertible {
    /// The chunk number where known (chunks are numbered in file order).
    public var chunk: Int?
    /// Frames lost, where they can be inferred (`nil` when the damage is at the end of the file
    /// and nothing says how many frames it held).
    public var frames: Range<Int>?
    /// Byte range of the damage in the file.
    public var bytes: Range<UInt64>
    /// What is wrong with those bytes.
    public var cause: DamageCause

    /// The cause in words, as `info` and the event log's gap records give it.
    public var reason: String { cause.description }

    public var description: String {
        var s = ""
        if let chunk { s += "chunk \(chunk) " }
        if let frames { s += frames.isEmpty ? "(no whole frames) " : "(frames \(frames.lowerBound)...\(frames.upperBound - 1)) " }
        return s + "at bytes \(bytes.lowerBound)..<\(bytes.upperBound): \(reason)"
    }
}

/// Reads a `.luma` recording: its header, its chunks (from the index, or by a recovery scan when
/// the file was never closed or its index is damaged), and frames by index or by timestamp.
///
/// Opening reads only the header, reference frame and index. Frames are decoded a chunk at a time
/// with a ``ChunkDecoder``; each decoder is for one thread, the reader itself may be shared.
public final class RecordingReader: @unchecked Sendable {
    /// What messages call the recording: its path, or its URL without password or query.
    public let path: String
    /// The recording's file name, as an event log's header keeps it.
    public var fileName: String { source.fileName }
    /// A failure of the recording's source that ended reading (a web request that failed for good:
    /// the resource replaced, the server still failing after the retries), or `nil`.
    public var readFailure: LumaFormatError? { source.failure }
    public let header: RecordingHeader
    /// Bytes in the recording (its source's size, fixed when opened).
    public var fileSize: UInt64 { source.size }
    /// Every intact chunk, in file order.
    public let chunks: [ChunkEntry]
    /// `true` when the file was closed properly and its index was used.
    public let hasIndex: Bool
    /// `true` when the file ends with an intact trailer, as a closed file does: with ``hasIndex``
    /// `false`, the index it points to is damaged or does not match the chunks, not missing.
    public let hasTrailer: Bool
    /// Damage found while opening (the scan of an unindexed file, or gaps between indexed chunks).
    /// Damage inside a payload shows only when it is decoded: see ``verify()``.
    public let damage: [RecordingDamage]

    /// The `.luma` format version of the file (see ``RecordingHeader/formatVersion``).
    public let formatVersion: Int
    /// How this file's chunk payloads are laid out (its version and frame size decide).
    let payloadLayout: PayloadLayout

    /// The recording's bytes: a file, memory, a web resource.
    public let source: any ByteSource
    let reference: [UInt8]?
    /// The intact reference-frame record that `reference` was decoded from.
    let referenceRecord: RecordLocation?
    /// The header's fields as stored (from whichever copy was intact), for recovery to write back.
    let headerFields: [UInt8]
    /// The header at byte 0 is damaged and was read from a copy.
    let headerFromCopy: Bool
    /// Offset just past the header and the intact reference copies: where chunks may begin.
    let chunksStart: UInt64
    private let indexedDigest: [UInt8]?

    /// Total frames, counting those in damaged chunks between intact ones.
    public var frameCount: Int { chunks.last.map { $0.firstFrame + $0.frameCount } ?? 0 }
    /// Frames that can actually be decoded.
    public var readableFrameCount: Int { chunks.reduce(0) { $0 + $1.frameCount } }

    /// Opens the recording file at `path`.
    public convenience init(path: String) throws(LumaFormatError) {
        try self.init(source: FileByteSource(path: path))
    }

    /// Opens the recording `location` names: a file's path, or an `http://` or `https://` URL
    /// read with range requests (``HTTPByteSource``). `report` hears of every retried web request.
    public convenience init(location: RecordingLocation, report: (@Sendable (HTTPByteSource.Retry) -> Void)? = nil) throws(LumaFormatError) {
        try self.init(source: ByteSources.open(location, report: report))
    }

    /// Opens the recording held by `source`: a file, bytes in memory, a web resource.
    ///
    /// The header is the record at byte 0, or (version 2 and later) its copy after the first
    /// chunk when that record is damaged. When both are intact but disagree (a size or version
    /// written over one of them), the one whose size and version decode the first chunk is
    /// believed, and the other is reported as damage for `lumatrace recover` to write back.
    public convenience init(source: any ByteSource) throws(LumaFormatError) {
        try self.init(opening: source)
        // Reads that failed while opening (a web request that failed for good) were not damage.
        if let failure = source.failure { throw failure }
    }

    private convenience init(opening source: any ByteSource) throws(LumaFormatError) {
        let (path, fileSize) = (source.name, source.size)
        let primary = try RecordingReader.readHeader(source, fileSize: fileSize, path: path)
        guard primary.copyOffset == nil,
              let copy = RecordingReader.disagreeingHeaderCopy(source, fileSize: fileSize, path: path, primary: primary) else {
            try self.init(source: source, header: primary, disagreement: nil)
            return
        }
        let trial = try RecordingReader(source: source, header: primary, disagreement: nil)
        if trial.firstChunkDecodes {
            try self.init(source: source, header: primary, disagreement: copy.copyOffset)
            return
        }
        let other = try? RecordingReader(source: source, header: copy, disagreement: copy.copyOffset)
        if other?.firstChunkDecodes == true {
            try self.init(source: source, header: copy, disagreement: copy.copyOffset)
        } else {
            try self.init(source: source, header: primary, disagreement: copy.copyOffset)
        }
    }

    /// Whether the first chunk decodes with this reader's header and reference frame.
    private var firstChunkDecodes: Bool {
        guard let first = chunks.first else { return false }
        let decoder = makeDecoder()
        guard let frames = try? decoder.decode(first) else { return false }
        decoder.recycle(frames)
        return true
    }

    private init(source: any ByteSource,
                 header: (header: RecordingHeader, version: Int, fields: [UInt8], end: UInt64, copyOffset: UInt64?),
                 disagreement: UInt64?) throws(LumaFormatError) {
        path = source.name
        self.source = source
        let frameSize = header.header.frameSize
        self.header = header.header
        formatVersion = header.version
        let layout = PayloadLayout(header.header, version: header.version)
        payloadLayout = layout
        headerFields = header.fields
        headerFromCopy = header.copyOffset != nil
        var openingDamage = RecordingReader.headerDamage(end: header.end, copyOffset: header.copyOffset, disagreement: disagreement)

        // The index, if the trailer points at an intact one that matches the chunks it lists. It
        // bounds the reference copies: a copy cut short by a crash must not seem to run on into the
        // index that `recover` appended after it.
        let (file, fileSize) = (source, source.size)
        let trailer = RecordingReader.trailerIndexOffset(file, fileSize: fileSize)
        hasTrailer = trailer != nil
        let index = trailer.flatMap { offset in
            RecordingReader.readIndex(file, fileSize: fileSize, at: offset, after: header.end, layout: layout).map { (offset, $0) }
        }
        let first = RecordingReader.readReferences(file, fileSize: fileSize, at: header.end, before: index?.0 ?? fileSize, frameSize: frameSize)
        var reference = (frame: first.frame, record: first.record)
        chunksStart = first.end

        var scannedReferences: [RecordLocation] = []
        if let (_, index) = index {
            chunks = index.chunks
            indexedDigest = index.framesDigest
            hasIndex = true
            openingDamage += RecordingReader.framesRemoved(from: index.chunks)
        } else {
            let scan = RecordingScanner(file: file, fileSize: fileSize, layout: layout).scan(from: first.end)
            chunks = scan.chunks
            openingDamage += scan.damage
            scannedReferences = scan.references
            indexedDigest = nil
            hasIndex = false
        }
        if reference.frame == nil {
            reference = RecordingReader.laterReference(file, fileSize: fileSize, after: chunks.first, before: index?.0 ?? fileSize,
                                                       scanned: scannedReferences, frameSize: frameSize)
        }
        self.reference = reference.frame
        referenceRecord = reference.record
        damage = openingDamage
    }

    /// What is wrong with the header as read: its copies disagree (`disagreement`: the copy's
    /// offset), or it was read from its copy.
    private static func headerDamage(end: UInt64, copyOffset: UInt64?, disagreement: UInt64?) -> [RecordingDamage] {
        if let copy = disagreement {
            return [RecordingDamage(chunk: nil, frames: 0..<0, bytes: 0..<end,
                                    cause: .headerCopiesDisagree(copyOffset: copy, copyUsed: copyOffset != nil))]
        } else if let copy = copyOffset {
            return [RecordingDamage(chunk: nil, frames: 0..<0, bytes: 0..<end, cause: .headerReadFromCopy(copyOffset: copy))]
        }
        return []
    }

    /// The frames an index skips between its chunks (removed from it on purpose, say by `recover`).
    private static func framesRemoved(from chunks: [ChunkEntry]) -> [RecordingDamage] {
        var removed: [RecordingDamage] = []
        var expected = 0
        for c in chunks {
            if c.firstFrame > expected {
                removed.append(RecordingDamage(chunk: nil, frames: expected..<c.firstFrame, bytes: c.offset..<c.offset,
                                               cause: .framesRemovedFromIndex))
            }
            expected = c.firstFrame + c.frameCount
        }
        return removed
    }

    /// The reference frame when the copies after the header are damaged: version 2 keeps another
    /// right after the first chunk; failing that, the first of the reference records a scan found
    /// that decodes.
    private static func laterReference(_ file: any ByteSource, fileSize: UInt64, after firstChunk: ChunkEntry?, before limit: UInt64,
                                       scanned: [RecordLocation], frameSize: Int) -> (frame: [UInt8]?, record: RecordLocation?) {
        if let firstChunk {
            let after = readReferences(file, fileSize: fileSize, at: firstChunk.recordEnd, before: limit, frameSize: frameSize)
            if after.frame != nil { return (after.frame, after.record) }
        }
        var decoder = ZstdDecompressor()
        for r in scanned {
            if let frame = decodeReference(r, file: file, frameSize: frameSize, decoder: &decoder) { return (frame, r) }
        }
        return (nil, nil)
    }

    /// A decoder for frames of this recording. Use one per thread.
    public func makeDecoder() -> ChunkDecoder { ChunkDecoder(reader: self) }

    /// The chunk holding `frame`, if it is readable.
    public func chunk(containing frame: Int) -> ChunkEntry? {
        var lo = 0, hi = chunks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if chunks[mid].firstFrame + chunks[mid].frameCount <= frame { lo = mid + 1 } else { hi = mid }
        }
        guard lo < chunks.count, chunks[lo].frames.contains(frame) else { return nil }
        return chunks[lo]
    }

    /// The index of the first frame whose timestamp is at or after `ticks`, or `nil` if none is.
    /// Reads only the frame table of one chunk.
    public func frameIndex(atOrAfter ticks: Int64) throws(LumaFormatError) -> Int? {
        var lo = 0, hi = chunks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if chunks[mid].lastTicks < ticks { lo = mid + 1 } else { hi = mid }
        }
        guard lo < chunks.count else { return nil }
        let fields = try chunkFields(chunks[lo])
        guard let k = fields.timestamps.firstIndex(where: { $0 >= ticks }) else { return nil }
        return fields.firstFrame + k
    }

    /// The timestamps, in ticks, of the frames of `entry` (one of ``chunks``), or `nil` when its
    /// frame table is damaged. Reads only that table, not the pixels; throws only when bytes cannot
    /// be read at all (a read error, a server gone).
    public func frameTicks(of entry: ChunkEntry) throws(LumaFormatError) -> [Int64]? {
        do {
            return try chunkFields(entry).timestamps
        } catch {
            if case .damagedChunk = error { return nil }
            throw error
        }
    }

    /// SHA-256 of all frames (timestamps and pixels), from the index when the file has one,
    /// otherwise by decoding every frame.
    public func framesDigest() throws(LumaFormatError) -> [UInt8] {
        if let indexedDigest { return indexedDigest }
        var digest = FramesDigest()
        let decoder = makeDecoder()
        for c in chunks {
            let frames = try decoder.decode(c)
            for k in 0..<frames.count { frames.withFrame(k) { digest.add(ticks: frames.timestamps[k], pixels: $0) } }
            decoder.recycle(frames)
        }
        return digest.finalize()
    }

    /// The frames digest the same frames would have had if they were recorded at `timescale`:
    /// every timestamp re-expressed there exactly. `nil` when some timestamp has no exact value at
    /// that timescale (then no recording at it holds these times).
    ///
    /// The digest covers times as ticks of the file's timescale, so one video recorded from the
    /// file (its stream's timescale) and from a Y4M pipe (the frame rate's) gets two digests; a log
    /// records its recording's timescale, so a tool given a log and a recording compares what
    /// matters, the frames and their exact times, with this.
    public func framesDigest(atTimescale timescale: Int64) throws(LumaFormatError) -> [UInt8]? {
        let own = header.timescale
        if timescale == own { return try framesDigest() }
        guard timescale > 0 else { return nil }
        func rescaled(_ ticks: Int64) -> Int64? {
            let product = ticks.multipliedFullWidth(by: timescale)
            guard own > 0, product.high.magnitude < UInt64(own) else { return nil }
            let (quotient, remainder) = own.dividingFullWidth(product)
            return remainder == 0 ? quotient : nil
        }
        // The times first (only the chunks' frame tables): most recordings fail here, undecoded.
        for c in chunks {
            guard try chunkFields(c).timestamps.allSatisfy({ rescaled($0) != nil }) else { return nil }
        }
        var digest = FramesDigest()
        let decoder = makeDecoder()
        for c in chunks {
            let frames = try decoder.decode(c)
            for k in 0..<frames.count {
                guard let ticks = rescaled(frames.timestamps[k]) else { return nil }
                frames.withFrame(k) { digest.add(ticks: ticks, pixels: $0) }
            }
            decoder.recycle(frames)
        }
        return digest.finalize()
    }

    /// Decodes every chunk and returns all damage: found while opening, and payloads that fail
    /// their checksum. A source that fails on the way (``readFailure``: a web request failed for good)
    /// ends the check; what it could not read is not called damage.
    public func verify() -> [RecordingDamage] {
        var found = damage
        let decoder = makeDecoder()
        for c in chunks {
            do { decoder.recycle(try decoder.decode(c)) } catch {
                if readFailure != nil { break }
                found.append(RecordingDamage(chunk: c.number, frames: c.frames, bytes: c.offset..<(c.offset + c.payloadLength), cause: .undecodable(error)))
            }
        }
        if reference == nil && chunks.count > 0 {
            found.append(RecordingDamage(chunk: nil, frames: nil, bytes: 0..<0, cause: .referenceFramesLost))
        }
        return found.sorted { ($0.frames?.lowerBound ?? Int.max, $0.bytes.lowerBound) < ($1.frames?.lowerBound ?? Int.max, $1.bytes.lowerBound) }
    }

    // MARK: - Records

    func chunkFields(_ entry: ChunkEntry) throws(LumaFormatError) -> ChunkFields {
        let r: RecordLocation
        switch RecordingReader.readRecord(source, at: entry.offset, fileSize: fileSize) {
        case .success(let found): r = found
        // Bytes that could not be read (a server gone, a read error) are not damage to the chunk.
        case .failure(.unreadable(let error)): throw error
        case .failure(let problem): throw damaged(entry, .record(problem))
        }
        guard r.kind == .chunk else { throw damaged(entry, .notAChunk(found: r.kind.rawValue)) }
        switch ChunkFields.parse(r.fields, layout: payloadLayout) {
        case .success(let f):
            guard f.firstFrame == entry.firstFrame, f.frameCount == entry.frameCount else {
                throw damaged(entry, .framesDisagree(chunkHeader: f.firstFrame..<(f.firstFrame + f.frameCount), index: entry.frames))
            }
            return f
        case .failure(let e): throw damaged(entry, .field(e))
        }
    }

    func damaged(_ entry: ChunkEntry, _ damage: ChunkDamage) -> LumaFormatError { entry.damaged(damage, in: path) }

    /// What a ``ChunkDecoder`` asks of the reader, and all it asks: chunk `entry`'s fields,
    /// checked, with its compressed payload read into the start of `payload` (grown to hold it).
    func readChunk(_ entry: ChunkEntry, payload: inout [UInt8]) throws(LumaFormatError) -> ChunkFields {
        let fields = try chunkFields(entry)
        guard entry.payloadLength <= fileSize else { throw damaged(entry, .payloadLongerThanFile(length: entry.payloadLength, fileSize: fileSize)) }
        let length = Int(entry.payloadLength)
        ScratchBuffer.ensure(&payload, holds: length)
        var failure: LumaFormatError?
        payload.withUnsafeMutableBytes { buffer in
            do throws(LumaFormatError) {
                try source.read(at: entry.payloadOffset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<length]))
            } catch { failure = error }
        }
        if let failure { throw failure }
        return fields
    }

    /// Reads and checks the envelope of the record at `offset`, never allocating more than the
    /// file can hold.
    static func readRecord(_ file: any ByteSource, at offset: UInt64, fileSize: UInt64) -> Result<RecordLocation, RecordProblem> {
        let prefixSize = UInt64(RecordLayout.prefixSize)
        guard offset <= fileSize, fileSize - offset >= prefixSize else {
            return .failure(.endOfFile(needed: prefixSize - (fileSize - min(offset, fileSize))))
        }
        let prefix: [UInt8]
        do { prefix = try file.read(at: offset, count: RecordLayout.prefixSize) } catch { return .failure(.unreadable(error)) }
        guard let kind = RecordKind(magic: prefix[0..<4]) else { return .failure(.noRecordStarts) }
        var r = ByteReader(prefix, offset: 4)
        let fieldsLength = UInt64((try? r.u32()) ?? 0)
        let payloadLength = (try? r.u64()) ?? 0
        guard fieldsLength <= UInt64(RecordLayout.maximumFieldsLength) else {
            return .failure(.fieldsTooLong(declared: fieldsLength, limit: RecordLayout.maximumFieldsLength))
        }
        let fieldsEnd = offset + prefixSize + fieldsLength + UInt64(RecordLayout.crcSize)
        guard fieldsEnd <= fileSize else { return .failure(.endOfFile(needed: fieldsEnd - fileSize)) }
        // A chunk's fields length follows from its frame count: check that before reading them all,
        // so a scan through garbage never reads more than a few bytes per false match.
        if kind == .chunk {
            guard fieldsLength >= 24, let head = try? file.read(at: offset + prefixSize + 12, count: 4) else {
                return .failure(.chunkFieldsTooShort)
            }
            var hr = ByteReader(head)
            let count = Int((try? hr.u32()) ?? 0)
            guard count >= 1, count <= ChunkFields.maximumFrames, fieldsLength == UInt64(ChunkFields.serializedLength(frameCount: count)) else {
                return .failure(.chunkFieldsMismatch(length: fieldsLength, frameCount: count))
            }
        }
        let rest: [UInt8]
        do { rest = try file.read(at: offset + prefixSize, count: Int(fieldsLength) + RecordLayout.crcSize) } catch { return .failure(.unreadable(error)) }
        var crcReader = ByteReader(rest, offset: Int(fieldsLength))
        let stored = (try? crcReader.u32()) ?? 0
        let computed = (prefix + rest[0..<Int(fieldsLength)]).withUnsafeBytes { CRC32.of($0) }
        guard stored == computed else { return .failure(.checksumMismatch(stored: stored, computed: computed)) }
        guard payloadLength <= fileSize - fieldsEnd else {
            return .failure(.endOfFile(needed: payloadLength - (fileSize - fieldsEnd)))
        }
        return .success(RecordLocation(kind: kind, offset: offset, fields: Array(rest[0..<Int(fieldsLength)]),
                                       payloadOffset: fieldsEnd, payloadLength: payloadLength))
    }

    /// Where the trailer says the index starts, or `nil` without an intact trailer.
    private static func trailerIndexOffset(_ file: any ByteSource, fileSize: UInt64) -> UInt64? {
        guard fileSize >= UInt64(Trailer.size),
              let trailer = try? file.read(at: fileSize - UInt64(Trailer.size), count: Trailer.size) else { return nil }
        return Trailer.indexOffset(from: trailer)
    }

    /// The index at `indexOffset` if it is intact, ends just before the trailer, and its first and
    /// last entries point at the chunks they describe: an index that is intact but wrong (shifted,
    /// or left over from an earlier layout) is not believed, and the reader scans instead.
    private static func readIndex(_ file: any ByteSource, fileSize: UInt64, at indexOffset: UInt64, after start: UInt64,
                                  layout: PayloadLayout) -> RecordingIndex? {
        guard fileSize >= start + UInt64(Trailer.size), indexOffset >= start,
              case .success(let r) = readRecord(file, at: indexOffset, fileSize: fileSize), r.kind == .index,
              r.end == fileSize - UInt64(Trailer.size),
              let index = RecordingIndex.parse(r.fields, fileSize: fileSize) else { return nil }
        for entry in [index.chunks.first, index.chunks.last].compactMap({ $0 }) {
            guard entry.offset >= start, case .success(let c) = readRecord(file, at: entry.offset, fileSize: fileSize), c.kind == .chunk,
                  case .success(let fields) = ChunkFields.parse(c.fields, layout: layout),
                  fields.firstFrame == entry.firstFrame, fields.frameCount == entry.frameCount,
                  c.payloadLength == entry.payloadLength else { return nil }
        }
        return index
    }

    /// Furthest from byte 0 that a version-2 header copy can lie: after the header, one reference
    /// copy and the largest first chunk (256 MiB of raw frames, which zstd may grow slightly).
    static let headerCopySearchLimit: UInt64 = 300 << 20

    /// The header, from the record at byte 0 or, when that one is damaged, from the first intact
    /// copy after it (version 2 writes one after the first chunk). `end` is where the record at
    /// byte 0 ends (copies have the same length); `copyOffset` says a copy was used.
    static func readHeader(_ file: any ByteSource, fileSize: UInt64, path: String) throws(LumaFormatError)
        -> (header: RecordingHeader, version: Int, fields: [UInt8], end: UInt64, copyOffset: UInt64?) {
        let head = try file.read(at: 0, count: Int(min(fileSize, 64)))
        let primaryFailure: LumaFormatError
        if head.count >= 4, head[0..<4].elementsEqual(RecordKind.header.magic) {
            switch readRecord(file, at: 0, fileSize: fileSize) {
            case .success(let r) where r.payloadLength == 0:
                do {
                    let (header, version) = try RecordingHeader.deserialize(fields: r.fields, path: path)
                    return (header, version, r.fields, r.end, nil)
                } catch { primaryFailure = error }
            case .success:
                primaryFailure = .invalidHeader(path: path, problem: .declaresPayload)
            case .failure(.unreadable(let error)):
                throw error
            case .failure(let problem):
                primaryFailure = .invalidHeader(path: path, problem: .record(problem))
            }
        } else if FileKindSniffer.kind(head: head) != nil {
            // Recognizably something else (a video, an image, a log): not a damaged recording.
            throw LumaFormatError.notARecording(path: path, looksLike: FileKindSniffer.describe(head: head))
        } else {
            primaryFailure = .notARecording(path: path, looksLike: FileKindSniffer.describe(head: head))
        }
        var parsed: (header: RecordingHeader, version: Int)?
        let copy = RecordSearch.next(in: file, fileSize: fileSize, after: 0, kinds: [.header], before: headerCopySearchLimit) { r in
            guard r.payloadLength == 0, let h = try? RecordingHeader.deserialize(fields: r.fields, path: path), h.version >= 2 else { return false }
            parsed = h
            return true
        }
        guard let copy, let parsed else { throw primaryFailure }
        return (parsed.header, parsed.version, copy.fields, copy.end - copy.offset, copy.offset)
    }

    /// The copy of an intact header at byte 0 (version 2 and later keep one right after the first
    /// chunk), when it is intact too and says something else; `nil` when it agrees or is not there.
    /// The copy is returned as a header whose `copyOffset` says where it lies and whose `end` is
    /// the record at byte 0's (where the reference frames begin).
    static func disagreeingHeaderCopy(_ file: any ByteSource, fileSize: UInt64, path: String,
                                      primary: (header: RecordingHeader, version: Int, fields: [UInt8], end: UInt64, copyOffset: UInt64?))
        -> (header: RecordingHeader, version: Int, fields: [UInt8], end: UInt64, copyOffset: UInt64?)? {
        let run = readReferences(file, fileSize: fileSize, at: primary.end, before: fileSize, frameSize: 0)
        guard case .success(let chunk) = readRecord(file, at: run.end, fileSize: fileSize), chunk.kind == .chunk,
              case .success(let copy) = readRecord(file, at: chunk.end, fileSize: fileSize), copy.kind == .header,
              copy.payloadLength == 0, copy.fields != primary.fields,
              let parsed = try? RecordingHeader.deserialize(fields: copy.fields, path: path), parsed.version >= 2
        else { return nil }
        return (parsed.header, parsed.version, copy.fields, primary.end, copy.offset)
    }

    /// Reads the run of header and reference-frame records starting at `offset` (each ending
    /// before `limit`), and decodes the first intact reference frame among them. Returns it, with
    /// its record, and the offset just past the run.
    static func readReferences(_ file: any ByteSource, fileSize: UInt64, at offset: UInt64, before limit: UInt64,
                               frameSize: Int) -> (frame: [UInt8]?, record: RecordLocation?, end: UInt64) {
        var position = offset
        var found: (frame: [UInt8], record: RecordLocation)?
        var decoder = ZstdDecompressor()
        while case .success(let r) = readRecord(file, at: position, fileSize: fileSize), r.kind == .reference || (r.kind == .header && position > 0),
              r.end <= limit {
            position = r.end
            if found == nil, r.kind == .reference, let frame = decodeReference(r, file: file, frameSize: frameSize, decoder: &decoder) {
                found = (frame, r)
            }
        }
        return (found?.frame, found?.record, position)
    }

    private static func decodeReference(_ r: RecordLocation, file: any ByteSource, frameSize: Int, decoder: inout ZstdDecompressor) -> [UInt8]? {
        var fr = ByteReader(r.fields)
        guard (try? fr.u32()) != nil, let size = try? fr.u64(), size == UInt64(frameSize),
              r.payloadLength <= UInt64(Int.max),
              let payload = try? file.read(at: r.payloadOffset, count: Int(r.payloadLength)) else { return nil }
        // Not zero-filled: memory is touched only as zstd writes what the payload really holds, so
        // a header claiming 16384×16384 over a few bytes of payload costs a few bytes.
        var ok = false
        let out = [UInt8](unsafeUninitializedCapacity: frameSize) { storage, initialized in
            ok = payload.withUnsafeBytes { input in (try? decoder.decompress(input, into: UnsafeMutableRawBufferPointer(storage))) != nil }
            initialized = ok ? frameSize : 0
        }
        return ok ? out : nil
    }
}
