import LumaBase
import LumaFormat

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
        let header = RecordingHeader(width: source.width, height: source.height, timescale: source.timescale,
                                     rateNumerator: source.rateNumerator, rateDenominator: source.rateDenominator,
                                     metadata: source.metadata.merging(metadata) { $1 })
        var writer: RecordingWriter?
        var pixels = [UInt8](unsafeUninitializedCapacity: header.frameSize) { _, initialized in initialized = header.frameSize }
        var failure: (any Error)?
        var chunksWritten = 0
        while !stop.isSet {
            let ticks: Int64?
            do {
                ticks = try pixels.withUnsafeMutableBufferPointer { try source.nextFrame(into: $0) }
            } catch {
                // A signal ends the stream mid-frame: that frame was never complete, which is where
                // recording stops, not an error.
                if !stop.isSet { failure = error }
                break
            }
            guard let ticks else { break }
            let active: RecordingWriter
            if let writer { active = writer } else {
                let file = try OutputFile.create(output, replacingExisting: replacingExisting, inputs: inputs,
                                                 streams: .refused(why: RecordingWriter.needsAFile), placement: .inPlace)
                active = try RecordingWriter(output: file, header: header, options: options)
                writer = active
            }
            // The analysis gets the frame first: appending it may compress and write a whole
            // chunk, which its events need not wait for. (If the append then fails, the analysis
            // is abandoned with the recording: its log stays a prefix, without a footer.)
            pixels.withUnsafeBufferPointer { analysis?.frameRecorded(index: active.frameCount, ticks: ticks, pixels: $0, header: header) }
            do {
                try active.append(pixels, ticks: ticks)
            } catch {
                // The file cannot take more (a full disk, say): it cannot take an index either, but
                // every chunk written before is complete and checksummed.
                analysis?.recordingAbandoned()
                throw RecorderError.writeFailed(error, frame: active.frameCount, chunksIn: active.writingPath)
            }
            if let analysis, active.chunks.count != chunksWritten, let last = active.chunks.last {
                // Frames the analysis could not take a copy of can be read back from here on.
                chunksWritten = active.chunks.count
                analysis.framesWritten(last.firstFrame + last.frameCount, in: active.writingPath)
            }
            progress?(active.frameCount, source.expectedFrameCount)
        }
        if failure == nil && !stop.isSet {
            do { try source.finish() } catch { failure = error }
        }
        // Close properly whatever happened: everything received so far stays readable.
        guard let writer, writer.frameCount > 0 else {
            writer?.abandon()  // nothing recorded: nothing left behind that the next run must replace
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
    /// The output could not take more (a full disk): its complete chunks are in `chunksIn`, without
    /// an index (`recover` writes one).
    case writeFailed(any Error, frame: Int, chunksIn: String)
    /// The input failed: the frames before it are a closed recording in `savedIn`.
    case inputFailed(any Error, framesSaved: Int, savedIn: String)

    public var description: String {
        switch self {
        case .writeFailed(let error, let frame, let path):
            return "\(error) — recording stopped at frame \(frame); the complete chunks before it are in \(path)"
        case .inputFailed(let error, let frames, let path):
            return "\(error) — the \(Plural.count(frames, "frame")) before the error are saved in \(path)"
        }
    }
}
