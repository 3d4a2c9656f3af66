import AnalyzerHarness
import Foundation
import LumaAnalysis
import LumaFormat
import LumaRegression
import LumaSynth
import LumaTestSupport
import LumaTruth
import Testing
import TrackingAnalyzer

/// A sequence to track: frames drawn on demand and the truth they are scored against.
struct TrackingSequence: Sendable, CustomTestStringConvertible {
    var name: String
    var width: Int
    var height: Int
    var frameCount: Int
    var truth: GroundTruth
    var draw: @Sendable (Int, UnsafeMutableBufferPointer<UInt8>) throws -> Void

    var testDescription: String { name }

    /// A `synth tracking` scene at the size of the bundled `tracking-synth` recording.
    static func synthetic(seed: UInt64) throws -> TrackingSequence {
        let scene = try SyntheticScene(kind: .tracking, settings: SceneSettings(width: 320, height: 180, frameCount: 90, seed: seed))
        return TrackingSequence(name: "synth tracking seed \(seed)", width: 320, height: 180, frameCount: 90, truth: scene.truth) {
            scene.render(frame: $0, into: $1)
        }
    }

    /// An OTB or VOT sequence of `../shared/data`: a folder of images and one box per frame.
    static func labelled(_ name: String, images: String, labels: String, format: TruthImport.Format) throws -> TrackingSequence {
        let folder = try ClipCorpus.require().appendingPathComponent(name).path
        let sequence = try ImageSequence(folder: "\(folder)/\(images)")
        let path = "\(folder)/\(labels)"
        let truth = try GroundTruth.imported(format, from: String(contentsOfFile: path, encoding: .utf8), path: path,
                                             geometry: TruthImport.Geometry(width: sequence.width, height: sequence.height,
                                                                            frames: sequence.files.count))
        return TrackingSequence(name: name, width: sequence.width, height: sequence.height, frameCount: sequence.files.count,
                                truth: truth) { index, pixels in
            _ = pixels.initialize(from: try sequence.decode(index).pixels)
        }
    }

    /// Every truth object's first box as a `seeds` option (`label=x,y,w,h;…`, normalized, lower-left
    /// origin): the trackers start where a user would draw them.
    var seeds: String {
        truth.objectTracks.map { object in
            "\(object.id)=" + object.points[0][1...4].map { String(format: "%.6f", $0) }.joined(separator: ",")
        }.joined(separator: ";")
    }

    /// Success AUC over every truth object (OTB one-pass protocol), as `lumatrace score` computes
    /// it from the replay's log.
    func successAUC(level: TrackingConfiguration.Level) throws -> Double {
        let harness = AnalyzerHarness(TrackingAnalyzer.self, configuration: .with {
            $0.trackingLevel = level
            $0.seeds = seeds
        })
        let log = try harness.withRecording(width: width, height: height, frameCount: frameCount, draw: draw) { try harness.log(recording: $0) }
        return try #require(try LogScore(log: log, truth: truth).tracking).successAUC
    }
}

/// Tracking quality floors: each sequence's success AUC, at each level, stays at what it measured
/// when the floor was set (`measured`) less 0.02. The analyzer is deterministic, so any change in
/// these figures comes from a change in the code; a drop beyond the margin fails here, not only in
/// the benchmark's table.
@Suite("Tracking quality floors: success AUC on synthetic and real sequences")
struct TrackingQualityFloorTests {
    static let margin = 0.02

    /// AUC measured on 2026-11-24 (`swift test --filter TrackingQualityFloorTests` prints them).
    static let measured: [String: (fast: Double, accurate: Double)] = [
        "synth tracking seed 1": (fast: 0.8439, accurate: 0.8538),
        "synth tracking seed 2": (fast: 0.9235, accurate: 0.8954),
        "synth tracking seed 3": (fast: 0.8889, accurate: 0.9224),
        "otb-crossing": (fast: 0.7956, accurate: 0.8004),
        "vot2015-ball1": (fast: 0.8018, accurate: 0.8077),
    ]

    static func check(_ sequence: TrackingSequence) throws {
        let floor = try #require(measured[sequence.name], "no measured AUC for \(sequence.name)")
        for (level, value) in [(TrackingConfiguration.Level.fast, floor.fast), (.accurate, floor.accurate)] {
            let auc = try sequence.successAUC(level: level)
            TestFigures.record("tracking quality: \(sequence.name) \(level.rawValue) success AUC \(String(format: "%.4f", auc))",
                               named: "tracking-\(sequence.name)-\(level.rawValue).txt")
            #expect(auc >= value - margin, "\(sequence.name), \(level.rawValue): success AUC \(auc), measured \(value) when the floor was set")
        }
    }

    @Test("synthetic scenes (3–4 objects crossing, scaling and hiding behind a post)", arguments: [UInt64(1), 2, 3])
    func synthetic(seed: UInt64) throws {
        try Self.check(try TrackingSequence.synthetic(seed: seed))
    }

    @Test("OTB crossing (a pedestrian crossing others), from ../shared/data", .clipCorpus)
    func otbCrossing() throws {
        try Self.check(try TrackingSequence.labelled("otb-crossing", images: "img", labels: "groundtruth_rect.txt", format: .otb))
    }

    @Test("VOT2015 ball1 (a small fast ball, 1280×720), from ../shared/data", .clipCorpus)
    func votBall() throws {
        try Self.check(try TrackingSequence.labelled("vot2015-ball1", images: "imgs", labels: "groundtruth.txt", format: .vot))
    }
}
