import LumaAnalysis
import LumaBase
@testable import TrajectoryAnalyzer

/// Runs a design's stages over frames that a closure draws, as the analyzer feeds them (one frame at
/// a time, in order, then `finish`), so that whoever measures a stage (the stage figures, the tests)
/// sets up the same stages the analyzer does, from the same ``StageSetting`` (as the benchmark does,
/// through the analyzer itself), and never rebuilds their wiring by hand. What passes between stages is seen through the design's
/// ``StageProbe``; what ends is handed to `ended` with the stages as they are at that moment.
///
/// GStreamer's `GstHarness` is the model: a stage in a test pipeline, fed buffers, its pads probed.
struct StageHarness {
    let setting: StageSetting
    let frameCount: Int
    let framesPerSecond: Double

    /// Frames of `width` × `height` at `framesPerSecond`, analyzed with `configuration` over the
    /// whole frame, every frame.
    init(width: Int, height: Int, frameCount: Int, framesPerSecond: Double, configuration: TrajectoryConfiguration,
         identity: String = "stage-harness") {
        let stream = StreamInfo(width: width, height: height, timescale: 1_000_000, nominalFrameRate: framesPerSecond,
                                frameCount: frameCount, identity: identity)
        setting = StageSetting(configuration: configuration, stream: stream, regionOfInterest: .full, frameAnalysisSpacing: 0)
        (self.frameCount, self.framesPerSecond) = (frameCount, framesPerSecond)
    }

    /// The design's stages as the analyzer sets them up (``StageSetting/makeStages()``).
    func makeStages() -> any TrajectoryStages { setting.makeStages() }

    /// The window design's stages, each its own unless another is given
    /// (see ``WindowStages/init(_:candidates:associator:confidence:)``).
    func windowStages(candidates: (any CandidateStage)? = nil, associator: (any Associator)? = nil,
                      confidence: (any PathConfidence)? = nil) -> WindowStages {
        WindowStages(setting, candidates: candidates, associator: associator, confidence: confidence)
    }

    /// Version 2's candidate stage as the tracking design sets it up.
    func blobCandidates() -> BlobCandidates { BlobCandidates(TrackingStages.detector(setting)) }

    /// Feeds `stages` every frame `render` draws into the frame's pixels, then finishes them;
    /// `ended` gets each frame's ended paths (and the last ones) with the stages after that frame.
    func run<Stages: TrajectoryStages>(_ stages: inout Stages, render: (Int, UnsafeMutableBufferPointer<UInt8>) throws -> Void,
                                       ended: ([EndedPath], Stages) -> Void = { _, _ in }) rethrows {
        try forEachFrame(render: render) { frame in ended(stages.advance(frame).ended, stages) }
        ended(stages.finish(), stages)
    }

    /// Runs `candidates` alone over the frames, handing each frame's candidates to `found`.
    func run(_ candidates: inout some CandidateStage, render: (Int, UnsafeMutableBufferPointer<UInt8>) throws -> Void,
             found: (Int, [Candidate]) -> Void) rethrows {
        try forEachFrame(render: render) { frame in found(frame.index, candidates.candidates(in: frame)) }
    }

    /// Each frame `render` draws, in order, timestamped at `framesPerSecond` (microsecond ticks).
    private func forEachFrame(render: (Int, UnsafeMutableBufferPointer<UInt8>) throws -> Void, _ body: (Frame) -> Void) rethrows {
        let (width, height) = (setting.geometry.frameWidth, setting.geometry.frameHeight)
        var pixels = [UInt8](repeating: 0, count: width * height)
        for index in 0..<frameCount {
            try pixels.withUnsafeMutableBufferPointer { try render(index, $0) }
            let ticks = Int64((Double(index) / framesPerSecond * 1_000_000).rounded())
            pixels.withUnsafeBufferPointer { buffer in
                body(Frame(index: index, timestamp: Timestamp(ticks: ticks, timescale: 1_000_000), width: width, height: height, pixels: buffer))
            }
        }
    }
}
