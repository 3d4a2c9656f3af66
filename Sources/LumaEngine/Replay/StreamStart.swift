import LumaAnalysis
import LumaFormat

/// The start of a stream's analysis: the `StreamInfo` its analyzers are made for, the analyzers
/// themselves (a ``FrameAnalysis``) and the header of their event log. A replay and the analysis
/// while recording make it here, one way, so their logs agree byte for byte.
public struct StreamStart {
    /// The analyzers, instantiated for the stream (not yet writing: ``FrameAnalysis/start(writingTo:)``).
    public let analysis: FrameAnalysis
    /// The log's first line: what is known before the first frame.
    public let logHeader: EventLogHeader

    /// Which frames the log covers, and what its header knows of the recording beyond its frame size.
    public enum Span: Sendable {
        /// The analysis while recording: from frame 0 to wherever the recording ends.
        case live
        /// A replay of `frames` of a closed recording of `frameCount` frames, `bytes` long, whose
        /// frames digest is `framesDigest`, into a log of `formatVersion` (a version-1 log holds
        /// what only the end knows in its header, and its analyzers are told the frame count).
        case replay(frames: ClosedRange<Int>, frameCount: Int, bytes: UInt64, framesDigest: String, skipDamaged: Bool, formatVersion: Int)

        /// The frame count analyzers are told (`StreamInfo.frameCount`): only a replay into a
        /// version-1 log knows it in advance.
        var frameCountTold: Int? {
            if case .replay(_, let frameCount, _, _, _, let formatVersion) = self, formatVersion == 1 { return frameCount }
            return nil
        }
    }

    /// Instantiates every analyzer of `setups` for the stream of a recording with `recording`'s
    /// header, named `identity` (`StreamInfo.identity`), and makes the header of their log,
    /// which names the recording `file`. Bad settings fail here, before any log exists.
    public init(setups: [AnalyzerSetup], registry: AnalyzerRegistry, recording: RecordingHeader, file: String, identity: String,
                span: Span, concurrent: Bool, debugImages: DebugImages? = nil, configurationFolder: String? = nil) throws(ReplayError) {
        let stream = StreamInfo(width: recording.width, height: recording.height, timescale: recording.timescale,
                                nominalFrameRate: recording.nominalFrameRate, frameCount: span.frameCountTold, identity: identity)
        analysis = try FrameAnalysis(setups: setups, registry: registry, stream: stream, concurrent: concurrent,
                                     debugImages: debugImages, configurationFolder: configurationFolder)
        switch span {
        case .live:
            logHeader = EventLogHeader(recordingFile: file, recordingBytes: 0, recordingDigest: "", frameCount: 0,
                                       width: recording.width, height: recording.height, timescale: recording.timescale,
                                       engineVersion: LumatraceVersion.engine, firstFrame: 0, lastFrame: 0, skipDamaged: false,
                                       analyzers: analysis.setups, replaysToEnd: true)
        case .replay(let frames, let frameCount, let bytes, let framesDigest, let skipDamaged, let formatVersion):
            logHeader = EventLogHeader(recordingFile: file, recordingBytes: bytes, recordingDigest: framesDigest, frameCount: frameCount,
                                       width: recording.width, height: recording.height, timescale: recording.timescale,
                                       engineVersion: LumatraceVersion.engine, firstFrame: frames.lowerBound, lastFrame: frames.upperBound,
                                       skipDamaged: skipDamaged, analyzers: analysis.setups, formatVersion: formatVersion)
        }
    }
}
