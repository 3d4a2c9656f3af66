#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import LumaOutput

/// Rebuilds a recording that was never closed (the recorder was killed, the disk filled) or is
/// damaged, so it opens directly again, and never keeps less than the recording held.
///
/// Chunks are found both through the index (when there is one) and by scanning every record, so an
/// index or trailer that is intact but wrong cannot hide them. Every chunk that decodes is kept,
/// byte for byte; an incomplete chunk at the end and damaged chunks are left out (their frames
/// become a logged gap). The header and the reference frame are written back from whichever copy
/// is intact, in the layout of the file's own format version.
///
/// The result is written to a temporary file next to its destination, synced, opened again and
/// its frames decoded; it replaces the recording (or becomes `output`) only if it holds at least
/// every frame the recording could be read for. Otherwise nothing changes and recovery throws
/// `LumaFormatError/recoveryRefused(path:reason:)` saying what could and could not be kept.
public enum RecordingRecovery {
    public struct Report: Sendable, Equatable {
        /// The file needed nothing: its layout is exactly what recovery would write and every chunk
        /// decodes. Nothing was written.
        public var wasIntact: Bool
        /// The format version of the recording, kept by the recovered file.
        public var formatVersion: Int
        /// Frames the recording could be read for before (what `info` and a replay see).
        public var framesBefore: Int
        /// Frames the recovered file holds, every one of them decodable.
        public var framesKept: Int
        public var chunksKept: Int
        /// Damage left out, including an incomplete tail.
        public var damage: [RecordingDamage]
        /// The file header was damaged and has been written back from its copy.
        public var restoredHeader: Bool
        public var originalSize: UInt64
        public var fileSize: UInt64
    }

    /// Recovers `path` in place, or into `output` when given (the input is then left untouched;
    /// an existing `output` is replaced only with `overwrite`, and never when it is `path` itself).
    public static func recover(_ path: String, output: String? = nil, overwrite: Bool = false) throws(LumaFormatError) -> Report {
        if let output {
            if let input = FileIdentity.of(path), let out = FileIdentity.of(output), input == out {
                throw LumaFormatError.outputIsInput(path: path, output: output)
            }
            if !overwrite && FileIdentity.exists(output) { throw LumaFormatError.outputExists(path: output) }
        }
        let reader = try RecordingReader(path: path)
        let survey = ChunkSurvey(reader)
        let plan = try survey.plan(path: path)
        // Chunks that are there but none decodes: the header (size, version) is more likely wrong
        // than every chunk damaged, and a file of no frames is never worth what it replaces.
        if plan.frames == 0 && survey.chunkRecords > 0 {
            let h = reader.header
            throw LumaFormatError.recoveryRefused(path: path, refusal: .noChunkDecodes(chunks: survey.chunkRecords, width: h.width, height: h.height, formatVersion: reader.formatVersion))
        }
        let report = Report(wasIntact: false, formatVersion: reader.formatVersion, framesBefore: survey.framesBefore,
                            framesKept: plan.frames, chunksKept: plan.chunks, damage: reader.verify(),
                            restoredHeader: reader.headerFromCopy, originalSize: reader.fileSize, fileSize: plan.size)
        if output == nil, survey.allDecode, try plan.matches(reader.source, size: reader.fileSize) {
            return Report(wasIntact: true, formatVersion: report.formatVersion, framesBefore: survey.framesBefore,
                          framesKept: survey.framesBefore, chunksKept: reader.chunks.count, damage: [], restoredHeader: false,
                          originalSize: reader.fileSize, fileSize: reader.fileSize)
        }

        let destination = output ?? FileIdentity.resolved(path)
        // Written beside the destination and renamed into place only when it reads back whole
        // (OutputFile); in place, the recording keeps its permissions.
        let file: OutputFile
        do throws(OutputError) {
            file = try OutputFile.create(destination, replacingExisting: output == nil || overwrite, kind: .recording,
                                         streams: .refused(why: RecordingWriter.needsAFile))
        } catch { throw .output(error) }
        if output == nil, let mode = FileIdentity.of(path)?.mode { try? file.openFile.setPermissions(mode) }
        let handle = FileHandleIO.borrowing(file)
        try plan.write(from: reader.source, to: handle)
        try handle.sync()
        // Believe the result only once it reads back with at least what the recording held.
        let check = try? ChunkSurvey(RecordingReader(path: file.writingPath))
        guard let check, check.framesBefore == plan.frames, check.allDecode, check.framesBefore >= survey.framesBefore else {
            throw LumaFormatError.recoveryRefused(path: path, refusal: .rebuiltHoldsLess(rebuilt: check?.framesBefore ?? 0, recording: survey.framesBefore))
        }
        do throws(OutputError) { try file.commit() } catch {
            if case .exists(let existing) = error { throw .outputExists(path: existing) }
            throw .output(error)
        }
        return report
    }
}

/// What each chunk of a recording holds: every chunk found by the index or by scanning, checked by
/// decoding it.
struct ChunkSurvey {
    /// Frames the reader's own chunks decode to: what the recording can be read for today.
    var framesBefore = 0
    /// Every chunk the reader lists decodes, and scanning found no other.
    var allDecode = true
    /// Intact chunks in file order, numbered as found, with frames and timestamps increasing.
    var intact: [ChunkEntry] = []
    /// Of `intact`, the frames that cannot be decoded because both reference copies are lost.
    var needReference = 0
    /// Chunk records found, by the index or by scanning, whether they decode (or fit the header) or not.
    var chunkRecords = 0
    let reader: RecordingReader

    enum Health { case decodes, needsReference, damaged }

    init(_ reader: RecordingReader) {
        self.reader = reader
        let decoder = reader.makeDecoder()
        var health: [UInt64: Health] = [:]
        func check(_ c: ChunkEntry) -> Health {
            if let known = health[c.offset] { return known }
            var h = Health.damaged
            do {
                decoder.recycle(try decoder.decode(c))
                h = .decodes
            } catch {
                if decoder.lastFailureNeedsReference { h = .needsReference }
            }
            health[c.offset] = h
            return h
        }
        for c in reader.chunks {
            if check(c) == .decodes { framesBefore += c.frameCount } else { allDecode = false }
        }
        // An index can be intact and still wrong: scan too, and take every intact chunk either finds.
        var candidates = reader.chunks
        if reader.hasIndex {
            let scan = RecordingScanner(file: reader.source, fileSize: reader.fileSize, layout: reader.payloadLayout).scan(from: reader.chunksStart)
            let listed = Set(reader.chunks.map(\.offset))
            let extra = scan.chunks.filter { !listed.contains($0.offset) }
            if !extra.isEmpty { allDecode = false }
            candidates += extra
        }
        chunkRecords = candidates.count
        if chunkRecords == 0 {
            // No chunk fits the header: count the chunk records there are all the same, so that a
            // header whose size or version fits none of them is not taken for an empty recording.
            chunkRecords = RecordingScanner(file: reader.source, fileSize: reader.fileSize, layout: reader.payloadLayout)
                .scan(from: reader.chunksStart).chunkRecords
        }
        var nextFrame = 0
        var lastTicks = Int64.min
        for c in candidates.sorted(by: { $0.offset < $1.offset }) where c.firstFrame >= nextFrame && c.firstTicks > lastTicks {
            let h = check(c)
            guard h != .damaged else { continue }
            if h == .needsReference { needReference += c.frameCount }
            intact.append(c)
            nextFrame = c.firstFrame + c.frameCount
            lastTicks = c.lastTicks
        }
    }

    /// The file recovery writes: the recording's layout rebuilt around its intact chunks.
    func plan(path: String) throws(LumaFormatError) -> RecoveryPlan {
        if needReference > 0 {
            let total = intact.reduce(0) { $0 + $1.frameCount }
            throw LumaFormatError.recoveryRefused(path: path, refusal: .referenceLost(needingReference: needReference, total: total, intactChunks: intact.count))
        }
        var digest = FramesDigest()
        let decoder = reader.makeDecoder()
        for c in intact {
            guard let frames = try? decoder.decode(c) else {
                throw LumaFormatError.recoveryRefused(path: path, refusal: .chunkChanged(chunk: c.number))
            }
            for k in 0..<frames.count { frames.withFrame(k) { digest.add(ticks: frames.timestamps[k], pixels: $0) } }
            decoder.recycle(frames)
        }
        return RecoveryPlan(reader: reader, chunks: intact, framesDigest: digest.finalize())
    }
}

/// The bytes of a recovered recording, as pieces: new bytes (header, index, trailer, record
/// envelopes) and byte ranges of the original (chunk records and the reference payload), so a
/// chunk is copied byte for byte and never decoded and re-encoded.
struct RecoveryPlan {
    enum Piece {
        case bytes([UInt8])
        case original(Range<UInt64>)

        var count: UInt64 {
            switch self {
            case .bytes(let b): UInt64(b.count)
            case .original(let r): r.upperBound - r.lowerBound
            }
        }
    }

    private(set) var pieces: [Piece] = []
    let frames: Int
    let chunks: Int
    var size: UInt64 { pieces.reduce(0) { $0 + $1.count } }

    init(reader: RecordingReader, chunks kept: [ChunkEntry], framesDigest: [UInt8]) {
        frames = kept.reduce(0) { $0 + $1.frameCount }
        chunks = kept.count
        let header = RecordLayout.envelope(.header, fields: reader.headerFields, payloadLength: 0)
        func reference(copy: Int) -> [Piece] {
            guard let r = reader.referenceRecord else { return [] }
            let fields = RecordingWriter.referenceFields(copy: copy, frameSize: reader.header.frameSize)
            return [.bytes(RecordLayout.envelope(.reference, fields: fields, payloadLength: Int(r.payloadLength))),
                    .original(r.payloadOffset..<r.end)]
        }
        var position: UInt64 = 0
        func add(_ new: [Piece]) {
            pieces += new
            position += new.reduce(0) { $0 + $1.count }
        }
        add([.bytes(header)])
        // Version 1: both copies side by side (one when no chunk needs it). Version 2: the second
        // copy, with the header's, after the first chunk.
        add(reference(copy: 0))
        if reader.formatVersion < 2 && !kept.isEmpty { add(reference(copy: 1)) }
        var entries: [ChunkEntry] = []
        for (i, c) in kept.enumerated() {
            var entry = c
            entry.number = i
            entry.offset = position
            entries.append(entry)
            add([.original(c.offset..<c.recordEnd)])
            if i == 0 && reader.formatVersion >= 2 { add([.bytes(header)] + reference(copy: 1)) }
        }
        let index = RecordingIndex(frameCount: kept.last.map { $0.firstFrame + $0.frameCount } ?? 0, chunks: entries, framesDigest: framesDigest)
        let indexOffset = position
        add([.bytes(RecordLayout.envelope(.index, fields: index.serialized(), payloadLength: 0))])
        add([.bytes(Trailer.bytes(indexOffset: indexOffset))])
    }

    /// Whether `file` already holds exactly these bytes, so there is nothing to rewrite.
    func matches(_ file: any ByteSource, size fileSize: UInt64) throws(LumaFormatError) -> Bool {
        guard size == fileSize else { return false }
        var position: UInt64 = 0
        for piece in pieces {
            switch piece {
            case .original(let r) where r.lowerBound == position:
                break
            case .original(let r):
                // Copied from elsewhere (the second reference copy is the first one's payload).
                var at: UInt64 = 0
                while at < piece.count {
                    let n = Int(min(1 << 20, piece.count - at))
                    guard try file.read(at: r.lowerBound + at, count: n) == file.read(at: position + at, count: n) else { return false }
                    at += UInt64(n)
                }
            case .bytes(let b):
                guard try file.read(at: position, count: b.count) == b else { return false }
            }
            position += piece.count
        }
        return true
    }

    /// Writes the pieces, copying ranges of `source` in blocks of at most 8 MiB.
    func write(from source: any ByteSource, to target: FileHandleIO) throws(LumaFormatError) {
        for piece in pieces {
            switch piece {
            case .bytes(let b): try target.write(b)
            case .original(let r):
                var at = r.lowerBound
                while at < r.upperBound {
                    let n = Int(min(8 << 20, r.upperBound - at))
                    try target.write(try source.read(at: at, count: n))
                    at += UInt64(n)
                }
            }
        }
    }
}
