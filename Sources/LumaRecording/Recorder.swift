import LumaBase
import LumaFormat
import LumaOutput

/// The record loop: frames from a ``FrameSource`` into a `.luma` recording, closed properly
/// whatever happens, so everything received stays readable.
///
/// A new recording is written in place, so a killed recorder leaves its complete chunks under the
/// output's name (`recover` indexes them); replacing one writes beside it, so the old one survives
/// a failure. The writer, with its frame-sized buffers, is made when the first frame has arrived: a
/// header declaring 16384×16384 with no frame behind it costs nothing.
public enum Recorder {
    /// What a finished recording holds.
    public typealias Summary = RecordingSummary

    /// Records every frame of `source` into `output` until it ends or `stop` is set, and closes it.
    /// `metadata` is added to the source's own. `progress` hears (frames recorded, frames expected).
    /// With `analysis`, every frame recorded is analyzed as well, and its log ends when the
    /// recording is closed (``LiveAnalysis/recordingEnded(_:)``; the caller reads its summary there).
    public static func record(_ source: inout any FrameSource, to output: String, replacingExisting: Bool, inputs: [String],
                              options: RecordingWriterOptions, metadata: [String: String] = [:], stop: StopFlag,
                              analysis: LiveAnalysis? = nil,
                              progress: ((Int, Int?) -> Void)? = nil) throws -> (header: RecordingHeader, summary: Summary) {
        var header = source.header
        header.metadata.merge(metadata) { $1 }
        var appender: BackgroundAppender?
        var frameCount = 0
        var failure: (any Error)?
        // The first frame is read into a buffer of its own: the writer, and the appender's
        // buffers, are made once a frame has arrived.
        var firstFrame = [UInt8](unsafeUninitializedCapacity: header.frameSize) { _, initialized in initialized = header.frameSize }
        while !stop.isSet {
            let buffer: (slot: Int, pixels: UnsafeMutableBufferPointer<UInt8>)?
            if let appender {
                guard let free = appender.nextBuffer() else { break }  // the writer failed: said below
                buffer = free
            } else {
                buffer = nil
            }
            let ticks: Int64?
            do {
                if let buffer {
                    ticks = try source.nextFrame(into: buffer.pixels)
                } else {
                    ticks = try firstFrame.withUnsafeMutableBufferPointer { try source.nextFrame(into: $0) }
                }
            } catch {
                // A signal ends the stream mid-frame: that frame was never complete, which is where
                // recording stops, not an error.
                if !stop.isSet { failure = error }
                if let buffer { appender?.giveBack(buffer.slot) }
                break
            }
            guard let ticks else {
                if let buffer { appender?.giveBack(buffer.slot) }
                break
            }
            // The analysis gets the frame first, as it arrives: the writer appends it on its own
            // thread, and a chunk it compresses and writes meanwhile holds up neither.
            if let buffer {
                analysis?.frameRecorded(index: frameCount, ticks: ticks, pixels: UnsafeBufferPointer(buffer.pixels), header: header)
                appender!.submit(buffer.slot, ticks: ticks)
            } else {
                let file = try OutputFile.create(output, replacingExisting: replacingExisting, inputs: inputs, kind: .recording,
                                                 streams: .refused(why: RecordingWriter.needsAFile), placement: .inPlace)
                appender = try startWriting(file, header: header, options: options, firstFrame: firstFrame, ticks: ticks, analysis: analysis)
                firstFrame = []
            }
            frameCount += 1
            progress?(frameCount, source.expectedFrameCount)
        }
        return try close(appender, header: header, framesReceived: frameCount, failure: failure, source: &source, output: output,
                         stop: stop, analysis: analysis)
    }

    /// The writer of a recording whose first frame has arrived, on its own thread, with that frame
    /// analyzed and submitted.
    private static func startWriting(_ file: OutputFile, header: RecordingHeader, options: RecordingWriterOptions, firstFrame: [UInt8],
                                     ticks: Int64, analysis: LiveAnalysis?) throws -> BackgroundAppender {
        let writer = try RecordingWriter(output: file, header: header, options: options)
        var chunkWritten: (@Sendable (Int, String) -> Void)?
        if let analysis { chunkWritten = { frames, path in analysis.framesWritten(frames, in: path) } }
        let appender = BackgroundAppender(writer: writer, chunkWritten: chunkWritten)
        firstFrame.withUnsafeBufferPointer { analysis?.frameRecorded(index: 0, ticks: ticks, pixels: $0, header: header) }
        let slot = appender.nextBuffer()!  // a new appender has every buffer free
        _ = firstFrame.withUnsafeBufferPointer { slot.pixels.initialize(from: $0) }
        appender.submit(slot.slot, ticks: ticks)
        return appender
    }

    /// Ends a recording once its frames have stopped coming: waits for the writer, then closes the
    /// file under its name, or (the input failed) aside with the frames it holds, or abandons it
    /// (no frame, or the file could take no more).
    private static func close(_ appender: BackgroundAppender?, header: RecordingHeader, framesReceived frameCount: Int, failure: (any Error)?,
                              source: inout any FrameSource, output: String, stop: StopFlag,
                              analysis: LiveAnalysis?) throws -> (header: RecordingHeader, summary: Summary) {
        var failure = failure
        appender?.finish()
        if let (error, frame) = appender?.failure {
            // The file cannot take more (a full disk, say): it cannot take an index either, but
            // every chunk written before is complete and checksummed.
            analysis?.recordingAbandoned()
            throw RecorderError.writeFailed(error, frame: frame, framesReceived: frameCount, chunksIn: appender!.writer.writingPath)
        }
        if failure == nil && !stop.isSet {
            do { try source.finish() } catch { failure = error }
        }
        // Close properly whatever happened: everything received so far stays readable.
        guard let writer = appender?.writer, writer.frameCount > 0 else {
            appender?.writer.abandon()  // nothing recorded: nothing left behind that the next run must replace
            throw failure ?? RecordingInputError.noFrames(source.name)
        }
        if let failure {
            analysis?.recordingAbandoned()
            // The frames before the error are kept, closed and readable, but not under the name
            // asked for: that stays free (or keeps the recording it had) for the next attempt.
            let (aside, summary) = try writer.closeAside(asideNames: incompleteNames(for: output))
            throw RecorderError.inputFailed(failure, framesSaved: summary.frameCount, savedIn: aside)
        }
        return (header, try writer.close())
    }

    /// Where a recording whose input failed is kept: `clip.incomplete.luma`, then
    /// `clip.incomplete-2.luma`, … (never over anything).
    public static func incompleteNames(for output: String) -> [String] {
        let stem = output.hasSuffix(".luma") ? String(output.dropLast(5)) : output
        return ["\(stem).incomplete.luma"] + (2...99).map { "\(stem).incomplete-\($0).luma" }
    }
}

/// How a recording stopped early; what was recorded before is kept and named.
public enum RecorderError: Error, CustomStringConvertible {
    /// The output could not take more (a full disk) at `frame`, when `framesReceived` frames had
    /// arrived: its complete chunks are in `chunksIn`, without an index (`recover` writes one).
    case writeFailed(any Error, frame: Int, framesReceived: Int, chunksIn: String)
    /// The input failed: the frames before it are a closed recording in `savedIn`.
    case inputFailed(any Error, framesSaved: Int, savedIn: String)

    public var description: String {
        switch self {
        case .writeFailed(let error, let frame, let received, let path):
            return "\(error) — recording stopped at frame \(frame)\(Self.alsoLost(frame: frame, received: received)); the complete chunks before it are in \(path)"
        case .inputFailed(let error, let frames, let path):
            return "\(error) — the \(Plural.count(frames, "frame")) before the error are saved in \(path)"
        }
    }

    /// ", with frames 8…9 received after it" when frames had arrived that the writer never took.
    public static func alsoLost(frame: Int, received: Int) -> String {
        received > frame + 1 ? ", with \(received - frame - 1 == 1 ? "frame \(frame + 1)" : "frames \(frame + 1)…\(received - 1)") received after it" : ""
    }
}
