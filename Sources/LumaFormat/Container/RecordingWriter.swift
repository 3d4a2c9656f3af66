import LumaBase
import LumaOutput

/// Settings of the `.luma` writer. The defaults suit recordings of any size.
///
/// A chunk is the unit of seeking (a frame is read by decoding its chunk) and the most a crash can
/// lose. It closes once it spans at least `chunkDuration` *and* holds at least `minimumChunkBytes` of
/// raw frames, or when it reaches `maximumChunkDuration` or `maximumChunkBytes`, whichever comes
/// first. Small frames therefore get chunks of a few seconds: each chunk starts from the reference
/// frame, and longer chunks amortize that (measured: 10-frame chunks of vtest compress to ratio 4.9,
/// 40-frame chunks to 5.7).
public struct RecordingWriterOptions: Sendable, Equatable {
    /// Shortest chunk, in seconds of recording time.
    public var chunkDuration: Double = 1.0
    /// Smallest chunk, in raw frame bytes (16 MiB: ~40 ms to decode).
    public var minimumChunkBytes: Int = 16 << 20
    /// Longest chunk, in seconds: bounds what a crash can lose when frames are small.
    public var maximumChunkDuration: Double = 10.0
    /// Largest chunk, in raw frame bytes (at least one frame).
    public var maximumChunkBytes: Int = 64 << 20
    /// zstd level (1...19). Level 1 is the measured sweet spot: higher levels gain nothing on frame
    /// residuals and record much slower (see README, Benchmarks).
    public var compressionLevel: Int = 1
    /// The `.luma` format version to write: 2 (the default) or 1, for readers that know only
    /// version 1 and for tests of version-1 files.
    public var formatVersion: Int = RecordingHeader.formatVersion

    public init(chunkDuration: Double = 1.0, minimumChunkBytes: Int = 16 << 20, maximumChunkDuration: Double = 10.0,
                maximumChunkBytes: Int = 64 << 20, compressionLevel: Int = 1, formatVersion: Int = RecordingHeader.formatVersion) {
        self.chunkDuration = chunkDuration
        self.minimumChunkBytes = minimumChunkBytes
        self.maximumChunkDuration = maximumChunkDuration
        self.maximumChunkBytes = maximumChunkBytes
        self.compressionLevel = compressionLevel
        self.formatVersion = formatVersion
    }

    /// Chunks of exactly `seconds` (no byte minimum): for tests and for live capture that must
    /// never hold back more than that.
    public static func fixedDuration(_ seconds: Double) -> RecordingWriterOptions {
        RecordingWriterOptions(chunkDuration: seconds, minimumChunkBytes: 0, maximumChunkDuration: seconds)
    }
}

/// What a closed recording holds.
public struct RecordingSummary: Sendable, Equatable {
    public var frameCount: Int
    public var chunkCount: Int
    public var fileSize: UInt64
    public var framesDigest: [UInt8]
}

/// Writes a `.luma` recording, append-only, one whole chunk at a time.
///
/// Frames are buffered until their chunk is complete, then the chunk is compressed and written
/// with a single record; a process killed at any moment leaves a file whose complete chunks are all
/// readable (``RecordingReader`` finds them by scanning when the index is missing, and
/// `lumatrace recover` rewrites the index). ``close()`` writes the index and trailer.
///
/// The first frame is also stored as the file's *reference frame*: every chunk starts with a frame
/// coded against it, so chunks stay independently decodable at about the cost of a delta instead of
/// a full intra frame.
///
/// Everything that all chunks depend on is stored twice, far apart, so that no single damaged
/// region loses more than the chunks it touches. Version 2 (the default) writes
///
/// ```
/// header · reference · chunk 0 · header copy · reference copy · chunk 1 · … · index · trailer
/// ```
///
/// Version 1 wrote the header once and both reference copies side by side after it.
public final class RecordingWriter {
    public let path: String
    public let header: RecordingHeader
    public let options: RecordingWriterOptions
    public private(set) var frameCount = 0
    public private(set) var chunks: [ChunkEntry] = []

    private let file: FileHandleIO
    /// Where the file goes: ``OutputFile`` places it under ``path`` (see ``init(output:header:options:)``).
    private let output: OutputFile
    private var offset: UInt64 = 0
    private let compressor: ZstdCompressor
    /// Hashed on a second thread (``BackgroundFramesDigest``).
    private let digest: BackgroundFramesDigest
    private var reference: [UInt8] = []
    private var previous: [UInt8] = []
    /// The chunk being filled: one mask per frame, then the non-zero residual bytes (MaskedResidual).
    private var chunkMasks: [UInt8] = []
    private var chunkValues: [UInt8] = []
    private var chunkValueCount = 0
    private var chunkMaskCount = 0
    private var chunkWhole: [Bool] = []
    /// Version 3: the chunk's block modes and low nibbles, and one frame's high nibbles (``BlockResidual``).
    private var chunkModes: [UInt8] = []
    private var chunkLows: [UInt8] = []
    private var high: [UInt8] = []
    private let layout: PayloadLayout
    private var zeros: [UInt8] = []
    private var chunkTimestamps: [Int64] = []
    private var chunkCodings: [FrameCoding] = []
    private var compressed: [UInt8] = []
    private var lastTicks: Int64?
    private let chunkDurationTicks: Int64
    private let maximumChunkDurationTicks: Int64
    private var closed = false
    /// Version 2: the header and reference copies, written right after the first chunk.
    private var copies: [UInt8] = []

    /// Why a recording cannot go to a stream (standard output, a FIFO, a device).
    public static let needsAFile = "a recording's index is written at its end, so it needs a regular file"

    /// Creates the recording at `path`. Refuses to replace an existing file unless `overwrite`.
    ///
    /// - Parameters:
    ///   - path: the recording to create.
    ///   - header: its size, timescale and metadata.
    ///   - options: how frames are grouped into chunks.
    ///   - overwrite: whether an existing file at `path` may be replaced.
    ///   - placement: `.inPlace` (the default) writes a new file under `path` from the
    ///     start, so a process killed at any moment leaves its complete chunks there for
    ///     `lumatrace recover`; `.whenComplete` writes a temporary sibling renamed into place by
    ///     ``close()``, for recordings that are cheap to make again (nothing half-written is left).
    ///     Replacing an existing file is always done `.whenComplete`.
    public convenience init(path: String, header: RecordingHeader, options: RecordingWriterOptions = .init(),
                            overwrite: Bool = false, placement: OutputFile.Placement = .inPlace) throws(LumaFormatError) {
        // Refused settings leave nothing behind: checked before the file is created.
        try Self.check(header, options, path: path)
        let output: OutputFile
        do throws(OutputError) {
            output = try OutputFile.create(path, replacingExisting: overwrite, kind: .recording, streams: .refused(why: Self.needsAFile), placement: placement)
        } catch { throw .output(error) }
        try self.init(output: output, header: header, options: options)
    }

    /// Writes the recording into `output` (its placement decides whether a killed or failed writer
    /// leaves the complete chunks under the final name, or nothing there). ``close()`` commits it.
    public init(output: OutputFile, header: RecordingHeader, options: RecordingWriterOptions = .init()) throws(LumaFormatError) {
        let path = output.path
        try Self.check(header, options, path: path)
        self.path = path
        self.header = header
        self.options = options
        self.compressor = ZstdCompressor(level: options.compressionLevel)
        self.chunkDurationTicks = max(1, Int64.ticks(forSeconds: options.chunkDuration, timescale: header.timescale))
        self.maximumChunkDurationTicks = max(1, Int64.ticks(forSeconds: options.maximumChunkDuration, timescale: header.timescale))
        self.zeros = [UInt8](repeating: 0, count: header.frameSize)
        self.digest = BackgroundFramesDigest(frameSize: header.frameSize)
        self.layout = PayloadLayout(header, version: options.formatVersion)
        self.output = output
        self.file = FileHandleIO.borrowing(output)
        try write(RecordLayout.envelope(.header, fields: header.serializedFields(version: options.formatVersion), payloadLength: 0))
    }

    /// Refuses a header no recording can have, and writer settings outside their ranges.
    private static func check(_ header: RecordingHeader, _ options: RecordingWriterOptions, path: String) throws(LumaFormatError) {
        if let problem = header.problem { throw LumaFormatError.invalidHeader(path: path, problem: problem) }
        guard (1...19).contains(options.compressionLevel) else {
            throw LumaFormatError.invalidHeader(path: path, problem: .compressionLevel(options.compressionLevel, allowed: 1...19))
        }
        guard options.chunkDuration > 0, options.chunkDuration <= 3600,
              options.maximumChunkDuration >= options.chunkDuration, options.maximumChunkDuration <= 3600 else {
            throw LumaFormatError.invalidHeader(path: path, problem: .chunkDuration(options.chunkDuration, maximum: options.maximumChunkDuration))
        }
        guard RecordingHeader.readableVersions.contains(options.formatVersion) else {
            throw LumaFormatError.unsupportedVersion(path: path, version: options.formatVersion)
        }
    }

    /// Appends one frame of `width × height` bytes. Timestamps must strictly increase.
    public func append(pixels: UnsafeBufferPointer<UInt8>, ticks: Int64) throws(LumaFormatError) {
        guard !closed else { throw LumaFormatError.writerClosed(path: path) }
        let size = header.frameSize
        guard pixels.count == size else {
            throw LumaFormatError.invalidFrame(path: path, frame: frameCount, problem: .size(bytes: pixels.count, expected: size, width: header.width, height: header.height))
        }
        if let lastTicks, ticks <= lastTicks {
            throw LumaFormatError.invalidFrame(path: path, frame: frameCount, problem: .timestampNotIncreasing(ticks: ticks, previous: lastTicks))
        }
        if frameCount == 0 { try writeReference(pixels) }
        if let first = chunkTimestamps.first {
            let span = ticks - first
            let bytes = chunkTimestamps.count * size
            if (span >= chunkDurationTicks && bytes >= options.minimumChunkBytes)
                || span >= maximumChunkDurationTicks
                || bytes + size > chunkByteLimit
                || chunkTimestamps.count == ChunkFields.maximumFrames {
                try flushChunk()
            }
        }

        let maskSize = MaskedResidual.maskSize(size)
        if chunkValues.isEmpty {
            // Room for the largest chunk, reserved once and never zero-filled: pages are touched
            // (and faulted in) only as frames fill them, and reused by every later chunk.
            let frames = max(1, min(ChunkFields.maximumFrames, chunkByteLimit / size))
            ScratchBuffer.ensure(&chunkValues, holds: frames * size)
            ScratchBuffer.ensure(&chunkMasks, holds: frames * maskSize)
            if layout.usesBlocks {
                ScratchBuffer.ensure(&chunkModes, holds: frames * layout.modeSize)
                ScratchBuffer.ensure(&chunkLows, holds: frames * layout.lowSize)
                ScratchBuffer.ensure(&high, holds: size)
            }
        }
        let coding = chooseCoding(pixels, startsChunk: chunkTimestamps.isEmpty)
        if layout.usesBlocks {
            appendBlocks(pixels, coding: coding)
        } else {
            appendMasked(pixels, coding: coding)
        }
        chunkTimestamps.append(ticks)
        chunkCodings.append(coding)
        previous.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: pixels.baseAddress!, count: size) }
        digest.add(ticks: ticks, pixels: pixels)
        lastTicks = ticks
        frameCount += 1
    }

    /// Versions 1 and 2: the frame's residual as mask and non-zero bytes, or whole when busy.
    private func appendMasked(_ pixels: UnsafeBufferPointer<UInt8>, coding: FrameCoding) {
        let size = header.frameSize
        let maskSize = MaskedResidual.maskSize(size)
        let busy = withPredictor(coding) { MaskedResidual.isBusy(pixels.baseAddress!, minus: $0, count: size) }
        let (maskAt, valueAt) = (chunkMaskCount, chunkValueCount)
        chunkValueCount += withPredictor(coding) { p in
            chunkMasks.withUnsafeMutableBufferPointer { masks in
                chunkValues.withUnsafeMutableBufferPointer { values in
                    if busy {
                        MaskedResidual.subtract(pixels.baseAddress!, minus: p, count: size, into: values.baseAddress! + valueAt)
                        return size
                    }
                    return MaskedResidual.encode(pixels.baseAddress!, minus: p, count: size,
                                                 mask: masks.baseAddress! + maskAt, values: values.baseAddress! + valueAt)
                }
            }
        }
        if !busy { chunkMaskCount += maskSize }
        chunkWhole.append(busy)
    }

    /// Version 3: the frame's block modes, low nibbles, and high nibbles as mask and non-zero bytes.
    private func appendBlocks(_ pixels: UnsafeBufferPointer<UInt8>, coding: FrameCoding) {
        let k = chunkTimestamps.count
        let (width, height, size) = (header.width, header.height, header.frameSize)
        let (modeSize, lowSize) = (layout.modeSize, layout.lowSize)
        withPredictor(coding) { predictor in
            chunkModes.withUnsafeMutableBufferPointer { modes in
                chunkLows.withUnsafeMutableBufferPointer { lows in
                    high.withUnsafeMutableBufferPointer { high in
                        BlockResidual.encode(pixels.baseAddress!, predictor: predictor, width: width, height: height,
                                             modes: modes.baseAddress! + k * modeSize, low: lows.baseAddress! + k * lowSize,
                                             high: high.baseAddress!)
                    }
                }
            }
        }
        let (maskAt, valueAt) = (chunkMaskCount, chunkValueCount)
        chunkValueCount += high.withUnsafeBufferPointer { high in
            zeros.withUnsafeBufferPointer { zero in
                chunkMasks.withUnsafeMutableBufferPointer { masks in
                    chunkValues.withUnsafeMutableBufferPointer { values in
                        MaskedResidual.encode(high.baseAddress!, minus: zero.baseAddress!, count: size,
                                              mask: masks.baseAddress! + maskAt, values: values.baseAddress! + valueAt)
                    }
                }
            }
        }
        chunkMaskCount += layout.maskSize
        chunkWhole.append(false)
    }

    /// Convenience for callers holding an array.
    public func append(_ pixels: [UInt8], ticks: Int64) throws(LumaFormatError) {
        var failure: LumaFormatError?
        pixels.withUnsafeBufferPointer { p in
            do throws(LumaFormatError) { try append(pixels: p, ticks: ticks) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Raw bytes a chunk may hold: the option, within the format's limit, and at least one frame.
    private var chunkByteLimit: Int { max(min(options.maximumChunkBytes, ChunkFields.maximumRawBytes), header.frameSize) }

    /// Writes the frames buffered so far as a chunk now, without waiting for the chunk to fill.
    /// Live recorders call this so a stalled stream loses nothing already received.
    public func flush() throws(LumaFormatError) {
        if !chunkTimestamps.isEmpty { try flushChunk() }
    }

    /// The file being written now: the final path, or the temporary one until ``close()``.
    public var writingPath: String { output.writingPath }

    /// Gives up on the recording: nothing is left under ``path`` that this writer created, and an
    /// existing recording there is untouched. (Dropping an unclosed writer instead keeps what was
    /// written, at ``writingPath``, for `lumatrace recover`.)
    public func abandon() {
        closed = true
        output.abandon()
    }

    /// Writes the last chunk, the index and the trailer, syncs the file to disk and puts it under
    /// ``path``.
    @discardableResult
    public func close() throws(LumaFormatError) -> RecordingSummary {
        let summary = try writeIndex()
        do throws(OutputError) { try output.commit() } catch { throw .output(error) }
        return summary
    }

    /// Closes a recording that ended early because its input failed: complete and readable, but
    /// placed under the first free name of `asideNames` (e.g. `clip.incomplete.luma`), so the name
    /// asked for is left free, or holding the recording it had, for the next attempt. Returns the
    /// name used and the summary.
    public func closeAside(asideNames: [String]) throws(LumaFormatError) -> (path: String, summary: RecordingSummary) {
        let summary = try writeIndex()
        let placed: String
        do throws(OutputError) { placed = try output.commitAside(asideNames: asideNames) } catch { throw .output(error) }
        return (placed, summary)
    }

    /// Writes the last chunk, the index and the trailer: the file is complete but not yet placed.
    private func writeIndex() throws(LumaFormatError) -> RecordingSummary {
        guard !closed else { throw LumaFormatError.writerClosed(path: path) }
        try flush()
        closed = true
        let framesDigest = digest.finalize()
        let indexOffset = offset
        try write(RecordLayout.envelope(.index, fields: RecordingIndex(frameCount: frameCount, chunks: chunks, framesDigest: framesDigest).serialized(), payloadLength: 0))
        try write(Trailer.bytes(indexOffset: indexOffset))
        return RecordingSummary(frameCount: frameCount, chunkCount: chunks.count, fileSize: offset, framesDigest: framesDigest)
    }

    // MARK: - Private

    /// Lends the predictor of `coding` without copying any frame.
    private func withPredictor<R>(_ coding: FrameCoding, _ body: (UnsafePointer<UInt8>) -> R) -> R {
        switch coding {
        case .intra: return zeros.withUnsafeBufferPointer { body($0.baseAddress!) }
        case .deltaFromPrevious: return previous.withUnsafeBufferPointer { body($0.baseAddress!) }
        case .deltaFromReference: return reference.withUnsafeBufferPointer { body($0.baseAddress!) }
        }
    }

    private func chooseCoding(_ pixels: UnsafeBufferPointer<UInt8>, startsChunk: Bool) -> FrameCoding {
        let size = header.frameSize
        let deltaCost = withPredictor(startsChunk ? .deltaFromReference : .deltaFromPrevious) {
            DeltaCoding.estimatedCost(pixels.baseAddress!, minus: $0, count: size)
        }
        // Intra only after a scene change, when the residual is busier than the picture itself.
        if deltaCost > 8 {
            let intraCost = DeltaCoding.estimatedCost(pixels.baseAddress!, minus: nil, count: size)
            if deltaCost > 2 * intraCost + 8 { return .intra }
        }
        return startsChunk ? .deltaFromReference : .deltaFromPrevious
    }

    private func writeReference(_ pixels: UnsafeBufferPointer<UInt8>) throws(LumaFormatError) {
        reference = Array(pixels)
        previous = reference
        let n: Int
        do { n = try compressor.compress(UnsafeRawBufferPointer(pixels), into: &compressed) } catch {
            throw LumaFormatError.compressionFailed(path: path, chunk: nil, error)
        }
        // Two copies: one flipped bit in the reference must not cost the whole recording. Version 2
        // holds the second back until the first chunk is written, so one damaged region cannot hit both.
        for copy in 0..<2 {
            var record = RecordLayout.envelope(.reference, fields: Self.referenceFields(copy: copy, frameSize: pixels.count), payloadLength: n)
            record += compressed[0..<n]
            if copy == 1 && options.formatVersion >= 2 {
                copies = RecordLayout.envelope(.header, fields: header.serializedFields(version: options.formatVersion), payloadLength: 0) + record
            } else {
                try write(record)
            }
        }
    }

    /// The fields of a reference-frame record: which copy it is, and the frame's size in bytes.
    static func referenceFields(copy: Int, frameSize: Int) -> [UInt8] {
        var w = ByteWriter()
        w.u32(UInt32(copy))
        w.u64(UInt64(frameSize))
        return w.bytes
    }

    private func flushChunk() throws(LumaFormatError) {
        let count = chunkTimestamps.count
        let maskLength = chunkMaskCount
        // Version 3 puts every frame's modes and low nibbles before the masks.
        let (modeLength, lowLength) = layout.usesBlocks ? (count * layout.modeSize, count * layout.lowSize) : (0, 0)
        let rawLength = modeLength + lowLength + maskLength + chunkValueCount
        let compressor = self.compressor
        var output: [UInt8] = []
        swap(&output, &compressed)  // keep a single owner so compressing never copies the buffer
        let valueCount = chunkValueCount
        let outcome: Result<Int, ZstdFailure> = chunkModes.withUnsafeBytes { modes in
            chunkLows.withUnsafeBytes { lows in
                chunkMasks.withUnsafeBytes { masks in
                    chunkValues.withUnsafeBytes { values in
                        Result { () throws(ZstdFailure) in
                            try compressor.compress([UnsafeRawBufferPointer(rebasing: modes[0..<modeLength]),
                                                     UnsafeRawBufferPointer(rebasing: lows[0..<lowLength]),
                                                     UnsafeRawBufferPointer(rebasing: masks[0..<maskLength]),
                                                     UnsafeRawBufferPointer(rebasing: values[0..<valueCount])], into: &output)
                        }
                    }
                }
            }
        }
        compressed = output
        let n: Int
        switch outcome {
        case .success(let length): n = length
        case .failure(let error): throw LumaFormatError.compressionFailed(path: path, chunk: chunks.count, error)
        }
        let fields = ChunkFields(number: chunks.count, firstFrame: frameCount - count, timestamps: chunkTimestamps,
                                 codings: chunkCodings, whole: chunkWhole, rawLength: rawLength)
        let entry = ChunkEntry(number: chunks.count, offset: offset, firstFrame: fields.firstFrame, frameCount: count,
                               firstTicks: chunkTimestamps[0], lastTicks: chunkTimestamps[count - 1], payloadLength: UInt64(n))
        // Envelope and payload in one write, so a reader never sees a chunk header without its data
        // unless the process died mid-write (which the scan then rejects as incomplete).
        var record = RecordLayout.envelope(.chunk, fields: fields.serialized(), payloadLength: n)
        record.append(contentsOf: compressed[0..<n])
        try write(record)
        chunks.append(entry)
        if !copies.isEmpty {
            try write(copies)
            copies = []
        }
        chunkTimestamps.removeAll(keepingCapacity: true)
        chunkCodings.removeAll(keepingCapacity: true)
        chunkValueCount = 0
        chunkMaskCount = 0
        chunkWhole.removeAll(keepingCapacity: true)
    }

    private func write(_ bytes: [UInt8]) throws(LumaFormatError) {
        try file.write(bytes)
        offset += UInt64(bytes.count)
    }
}
