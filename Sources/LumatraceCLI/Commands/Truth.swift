import ArgumentParser
import Foundation
import LumaBase
import LumaFormat
import LumaRegression
import LumaTruth
import LumaOutput

struct Truth: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ground truth files: import other datasets' labels, check a file against a recording.",
        discussion: """
            A truth file (JSON) holds, per recording, ball segments
            ([[frame, x, y, radius], ...]) and object tracks ([[frame, x, y, w, h],
            ...]), normalized with a lower-left origin, and notes on how it was made.
            `synth --truth` writes one; `score` and `regress` read them.

              lumatrace truth import otb groundtruth_rect.txt --recording c.luma -o c.truth.json
              lumatrace truth import vot groundtruth.txt --size 1280x720 -o b.truth.json
              lumatrace truth import tracknet Label.csv --size 1280x720 --ball-radius 6 -o r.truth.json
              lumatrace truth check c.truth.json --recording c.luma
            """,
        subcommands: [Import.self, Check.self])

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Convert OTB, VOT or TrackNet labels into a truth file.",
            discussion: """
                Values are separated by commas, tabs or spaces; lines by LF or CRLF.
                  otb       x,y,w,h per frame, 1-based pixels; 0,0,0,0 or NaN: no target
                  vot       polygon x1,y1,...,x4,y4 (its bounding box is kept) or
                            x,y,w,h, 0-based pixels
                  tracknet  CSV with a header, then frame, visibility, x, y (pixel
                            centre); visibility 0 = not visible. Runs of visible
                            frames become ball segments (a gap over --max-gap frames
                            splits them); --ball-radius gives the radius.
                The frame size comes from --recording (which also bounds the frames)
                or --size.
                """)

        @Argument(help: "Label format: otb, vot or tracknet.")
        var format: String

        @Argument(help: "The label file.")
        var labels: String

        @Option(help: "The recording the labels describe (gives the frame size and count).")
        var recording: RecordingLocation?

        @Option(help: "Frame size WIDTHxHEIGHT, when there is no --recording.", transform: FrameSizeArgument.parse)
        var size: FrameSizeArgument?

        @Option(help: "The recording frame of the first label line (OTB, VOT).")
        var firstFrame = 0

        @Option(help: "TrackNet: the ball's radius in pixels (> 0).")
        var ballRadius = 5.0

        @Option(help: "TrackNet: a gap of more than this many frames without the ball starts a new segment (0...1000).")
        var maxGap = 2

        @Option(name: .shortAndLong, help: "The truth file to write (*.truth.json).")
        var output: String

        @OptionGroup var replacing: ReplaceOutputOption

        func validate() throws {
            guard TruthImport.Format(rawValue: format) != nil else {
                throw ValidationError("format '\(format)' is not one of: " + TruthImport.Format.allCases.map(\.rawValue).joined(separator: ", "))
            }
            guard (recording == nil) != (size == nil) else { throw ValidationError("give exactly one of --recording and --size") }
            guard firstFrame >= 0 else { throw ValidationError("--first-frame \(firstFrame) is negative") }
            guard ballRadius > 0, ballRadius.isFinite else { throw ValidationError("--ball-radius \(ballRadius) must be a positive number of pixels") }
            guard (0...1000).contains(maxGap) else { throw ValidationError("--max-gap \(maxGap) is outside 0...1000") }
        }

        func run() throws {
            try reportingErrors {
                let file = try OutputFile.create(output, replacingExisting: replacing.replacesExisting, inputs: [labels, recording?.filePath].compactMap { $0 },
                                                 kind: .truth, streams: .allowed)
                var geometry: TruthImport.Geometry
                if let recording {
                    let reader = try openRecording(recording)
                    geometry = TruthImport.Geometry(width: reader.header.width, height: reader.header.height, frames: reader.frameCount)
                } else {
                    guard let size else { throw UsageError("give exactly one of --recording and --size") }
                    geometry = TruthImport.Geometry(width: size.width, height: size.height)
                }
                geometry.firstFrame = firstFrame
                geometry.ballRadius = ballRadius
                geometry.maximumGap = maxGap
                let bytes: [UInt8]
                do throws(SystemFile.WholeFileProblem) {
                    bytes = try SystemFile.readWhole(labels, maximumBytes: GroundTruth.maximumFileBytes, acceptingPipes: true)
                } catch {
                    throw CLIError("\(labels): \(error.description) (a label file is UTF-8 text of at most \(GroundTruth.maximumFileBytes) bytes)")
                }
                guard let text = String(validating: bytes, as: UTF8.self) else { throw CLIError("\(labels): not UTF-8 text, so not a label file") }
                let truth = try GroundTruth.imported(TruthImport.Format(rawValue: format)!, from: text, path: labels, geometry: geometry)
                try file.write(truth.canonicalJSON())
                try file.commit()
                let boxes = truth.objectTracks.reduce(0) { $0 + $1.points.count }, balls = truth.ballSegments.reduce(0) { $0 + $1.points.count }
                print("\(labels) → \(output): " + (truth.ballSegments.isEmpty ? Plural.count(boxes, "box", plural: "boxes") : "\(Plural.count(truth.ballSegments.count, "ball segment")), \(Plural.count(balls, "point"))")
                    + ", \(truth.width)x\(truth.height), \(Plural.count(truth.frames, "frame"))")
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a truth file, and that it fits a recording.",
            discussion: "Exit status 0 when it is usable; otherwise one line names the problem.")

        @Argument(help: "The truth file.")
        var truth: String

        @Option(help: "The recording it describes.")
        var recording: RecordingLocation?

        func run() throws {
            try reportingErrors {
                let t = try GroundTruth.read(truth)
                if let recording {
                    let reader = try openRecording(recording)
                    try t.check(againstFrames: reader.frameCount, width: reader.header.width, height: reader.header.height, path: truth)
                }
                print("\(truth): \(t.width)x\(t.height), \(Plural.count(t.frames, "frame")), \(Plural.count(t.ballSegments.count, "ball segment")), \(Plural.count(t.objectTracks.count, "object track"))"
                    + (recording.map { "; fits \($0)" } ?? ""))
            }
        }
    }
}
