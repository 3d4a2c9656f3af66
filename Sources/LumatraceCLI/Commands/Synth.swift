import ArgumentParser
import Foundation
import LumaAnalysis
import LumaBase
import LumaFormat
import LumaRegression
import LumaSynth
import LumaOutput

struct Synth: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make a deterministic synthetic fixed-camera recording with exact ground truth.",
        discussion: """
            Scenes (textured static background, sensor noise, all randomness from --seed):
              balls        thrown balls on parabolic paths: several at once, sizes and contrasts, bounces, exits
              tracking     textured objects moving, growing and shrinking, partly occluded, crossing
              distractors  slow large movers, a flickering light, brightness drift (no truth objects)
              mixed        all of the above
              crowded      thrown balls, each with its soft shadow on the wall behind it and the hand that
                           throws it (neither is in the truth: a path on them is a false one)
            The truth file lists every ball segment ([frame, x, y, radius]) and object track
            ([frame, x, y, w, h]), normalized with Vision's lower-left origin.
              lumatrace synth balls -o balls.luma --truth balls.truth.json --seed 7
              lumatrace synth tracking -o t.luma --truth t.json --size 1280x720 --fps 60 --frames 300
            """)

    @Argument(help: "Scene: balls, tracking, distractors, mixed or crowded.")
    var scene: String

    @OptionGroup var recording: RecordingOutputOptions

    @Option(help: "Where to write the ground truth JSON.")
    var truth: String?

    @Option(help: "Seed for every random choice: the same seed gives the same bytes.")
    var seed: UInt64 = 1

    @Option(help: "Frame size WIDTHxHEIGHT, each 16...16384 (default: 640x360).", transform: FrameSizeArgument.parse)
    var size = FrameSizeArgument(argument: "640x360")!

    @Option(help: "Frames per second, 1...1000.")
    var fps: Int = 30

    @Option(help: "Number of frames, 1...1000000.")
    var frames: Int = 150

    @Option(help: "Sensor noise: standard deviation in grey levels, 0...64.")
    var noise: Double = 2.0

    @OptionGroup var replacing: ReplaceOutputOption

    func run() throws {
        try reportingErrors {
            guard let kind = SceneKind(rawValue: scene) else {
                throw UsageError("unknown scene '\(scene)'; scenes: \(SceneKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let (w, h) = (size.width, size.height)
            let settings = SceneSettings(width: w, height: h, framesPerSecond: fps, frameCount: frames, seed: seed, noise: noise)
            let synthetic: SyntheticScene
            do throws(OptionError) { synthetic = try SyntheticScene(kind: kind, settings: settings) } catch {
                let option = ["frameCount": "--frames", "framesPerSecond": "--fps", "width": "--size", "height": "--size"][error.option] ?? "--\(error.option)"
                throw UsageError("\(option): \(error.option) \(error.message)")
            }
            try OutputChecks.requireDistinct(("--truth", truth), ("-o", recording.output))
            let truthFile = try truth.map { try OutputFile.create($0, replacingExisting: replacing.replacesExisting, kind: .truth, streams: .allowed) }

            let header = RecordingHeader(width: w, height: h, timescale: Int64(fps), rateNumerator: fps, rateDenominator: 1,
                                         metadata: ["source": "synth", "synth.scene": kind.rawValue, "synth.seed": String(seed),
                                                    "synth.noise": String(noise)])
            var options = RecordingWriterOptions()
            options.formatVersion = recording.formatVersion
            // A synthetic scene is made again in seconds: nothing half-written is ever left under OUTPUT.
            let writer = try RecordingWriter(path: recording.output, header: header, options: options, overwrite: replacing.replacesExisting, placement: .whenComplete)
            let progress = ProgressBar("synthesizing")
            try synthetic.forEachFrame { index, pixels in
                try writer.append(pixels: pixels, ticks: Int64(index))
                progress.update(index + 1, frames)
            }
            progress.finish()
            let summary = try writer.close()
            if let truthFile {
                try truthFile.write(synthetic.truth.canonicalJSON())
                try truthFile.commit()
            }
            print("synthesized \(kind.rawValue) (seed \(seed)): \(Plural.count(summary.frameCount, "frame")) \(w)x\(h) → \(recording.output) (\(summary.fileSize) bytes)"
                  + (truth.map { ", truth → \($0) (\(synthetic.truth.ballSegments.count) ball segments, \(synthetic.truth.objectTracks.count) object tracks)" } ?? ""))
        }
    }
}
