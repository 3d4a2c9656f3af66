// `lumatrace-bench tracking`: the tracking analyzer's quality and speed against OpenCV's trackers
// (CSRT, MIL, KCF, MOSSE through opencv-peer/trackers.py), on the same gray frames, each tracker
// seeded with the same first-frame box, scored with the OTB one-pass protocol.
import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaFormat
import LumaRegression
import LumaSynth
import LumaTruth
import TrackingAnalyzer

/// One sequence: gray frames in memory and the true box per frame (pixels, top-left origin).
struct TrackingSequence {
    var name: String
    var width: Int
    var height: Int
    var frames: [UInt8]
    var truth: [[Double]]
    var frameCount: Int { truth.count }
    var isReal: Bool
}

/// How one tracker did on one sequence (or on average).
struct TrackerScore {
    /// The tracker as the report names it: "Lumatrace fast", "OpenCV 5.0.0 CSRT".
    var tracker: String
    /// Its short name, the same whatever the version: "fast", "CSRT".
    var method: String { String(tracker.split(separator: " ").last ?? "") }
    var auc: Double
    var precision20: Double
    var framesPerSecond: Double
    var losses: Int
}

enum TrackingBench {
    static let syntheticSeeds: [UInt64] = Array(1...10)
    /// OpenCV's trackers, in the order the reports show them.
    static let peerTrackers = ["CSRT", "MIL", "KCF", "MOSSE"]
    /// The real sequences, in the data folder under these names.
    static let realSequences = ["otb-crossing", "vot2015-ball1"]
    /// The result that averages every sequence.
    static let averageName = "average"
    /// Every result's name: what a tracking target's `inputs` may list.
    static var inputNames: [String] { realSequences + syntheticSeeds.map { "synth-\($0)" } + [averageName] }

    /// The whole `tracking` benchmark: a table per sequence as it is measured and the averages
    /// with the targets (unless `--json`), one JSON line per sequence and one for the average,
    /// then the scaling with the number of tracks (not with `--only-lumatrace`).
    static func run(settings: BenchSettings) throws {
        try Scratch.withFolder { scratch, _ in
            let tools = try FFmpegTools.locate(scratch: scratch, needsPeerEncoders: false)
            var sequences = try [
                otb(settings.dataDirectory + "/" + realSequences[0], name: realSequences[0]),
                vot(settings.dataDirectory + "/" + realSequences[1], name: realSequences[1]),
            ]
            for seed in syntheticSeeds { sequences.append(try synthetic(seed: seed)) }
            let pythons = settings.onlyLumatrace ? [] : try TrajectoryBench.opencvPythons(tools: tools)
            log("lumatrace-bench tracking: \(settings.runs) run\(settings.runs == 1 ? "" : "s") per measurement; OpenCV peers: "
                + (settings.onlyLumatrace ? "none (--only-lumatrace)" : pythons.map(\.path).joined(separator: ", ")))
            let results = try measureEach(sequences, jsonOnly: settings.jsonOnly) { s in
                log("\(s.name): \(s.frameCount) frames \(s.width)x\(s.height)")
                var scores: [TrackerScore] = []
                for level in TrackingConfiguration.Level.allCases {
                    scores.append(try measureLumatrace(s, level: level, runs: settings.runs))
                }
                if !settings.onlyLumatrace {
                    scores += try measurePeers(s, pythons: pythons, runs: settings.runs, scratch: scratch, tools: tools)
                }
                return TrackingResult(sequence: s, scores: scores, settings: settings)
            }
            let average = TrackingResult(averaging: results, settings: settings)
            if !settings.jsonOnly {
                print(average.table())
                print(TrackingResult.targetLines(results + [average]))
            }
            let floors = printSummary(results + [average], jsonOnly: settings.jsonOnly, nothingMeasured: "no sequence was measured")
            if !settings.onlyLumatrace, let real = sequences.first(where: { $0.name == realSequences[1] }) {
                try measureScaling(real, settings: settings)
            }
            try floors.require()
        }
    }

    // MARK: - Sequences

    static func otb(_ folder: String, name: String) throws -> TrackingSequence {
        try labelled(folder, images: "img", labels: "groundtruth_rect.txt", format: .otb, name: name)
    }

    /// VOT polygons become their axis-aligned bounding box (the truth importer does it).
    static func vot(_ folder: String, name: String) throws -> TrackingSequence {
        try labelled(folder, images: "imgs", labels: "groundtruth.txt", format: .vot, name: name)
    }

    /// A folder of frames with one label line per frame, read by `lumatrace truth import`'s importer.
    static func labelled(_ folder: String, images: String, labels: String, format: TruthImport.Format,
                         name: String) throws -> TrackingSequence {
        let (frames, w, h, count) = try decodeFolder(folder + "/" + images)
        let path = folder + "/" + labels
        let truth = try GroundTruth.imported(format, from: String(contentsOfFile: path, encoding: .utf8), path: path,
                                             geometry: TruthImport.Geometry(width: w, height: h, frames: count))
        guard let object = truth.objectTracks.first, object.points.count == count else {
            throw InputError("\(path): the benchmark needs a target box on each of the \(count) frames")
        }
        return TrackingSequence(name: name, width: w, height: h, frames: frames, truth: pixelBoxes(object, w, h), isReal: true)
    }

    /// A `synth tracking` scene (640×360, 150 frames, seed `seed`); its first object is the target.
    static func synthetic(seed: UInt64) throws -> TrackingSequence {
        let scene = try SyntheticScene(kind: .tracking, settings: SceneSettings(seed: seed))
        let s = scene.settings
        guard let object = scene.truth.objectTracks.first else { throw InputError("synth tracking seed \(seed) has no object") }
        let first = Int(object.points[0][0])
        var frames: [UInt8] = []
        for i in first..<s.frameCount { frames += scene.frame(i) }
        return TrackingSequence(name: "synth-\(seed)", width: s.width, height: s.height, frames: frames,
                                truth: Array(pixelBoxes(object, s.width, s.height).prefix(s.frameCount - first)), isReal: false)
    }

    /// Truth boxes (normalized, lower-left origin) as pixel boxes with a top-left origin, what the
    /// OpenCV trackers take and give.
    static func pixelBoxes(_ object: ObjectTrack, _ width: Int, _ height: Int) -> [[Double]] {
        let (w, h) = (Double(width), Double(height))
        return object.points.map { p in [p[1] * w, (1 - p[2] - p[4]) * h, p[3] * w, p[4] * h] }
    }

    static func decodeFolder(_ folder: String) throws -> (frames: [UInt8], width: Int, height: Int, count: Int) {
        let sequence = try ImageSequence(folder: folder)
        var frames: [UInt8] = []
        for i in sequence.files.indices { frames += try sequence.decode(i).pixels }
        return (frames, sequence.width, sequence.height, sequence.files.count)
    }

    // MARK: - Measuring

    static func measureLumatrace(_ s: TrackingSequence, level: TrackingConfiguration.Level, runs: Int) throws -> TrackerScore {
        let b = s.truth[0]
        let (w, h) = (Double(s.width), Double(s.height))
        var configuration = TrackingConfiguration()
        configuration.trackingLevel = level
        configuration.seeds = String(format: "%.6f,%.6f,%.6f,%.6f", b[0] / w, 1 - (b[1] + b[3]) / h, b[2] / w, b[3] / h)
        let stream = StreamInfo(width: s.width, height: s.height, timescale: 30, nominalFrameRate: 30, frameCount: s.frameCount,
                                identity: "bench-\(s.name)")
        var seconds: [Double] = []
        var boxes: [[Double]] = []
        var losses = 0
        for _ in 0..<runs {
            var analyzer = try TrackingAnalyzer(configuration: configuration, context: AnalyzerContext(stream: stream))
            var emitted: [[EventSink.Emitted]] = []
            emitted.reserveCapacity(s.frameCount)
            let size = s.width * s.height
            let elapsed = try s.frames.withUnsafeBufferPointer { all in
                try Stopwatch.seconds {
                    for i in 0..<s.frameCount {
                        var sink = EventSink()
                        let frame = Frame(index: i, timestamp: Timestamp(ticks: Int64(i), timescale: 30), width: s.width, height: s.height,
                                          pixels: UnsafeBufferPointer(rebasing: all[(i * size)..<((i + 1) * size)]))
                        try analyzer.analyze(frame, into: &sink)
                        emitted.append(sink.events)
                    }
                }
            }
            // Decoded after the clock stopped.
            var found = [[Double]](repeating: [], count: s.frameCount)
            var lost = 0
            for (i, events) in emitted.enumerated() {
                for e in events {
                    if e.kind == "track.lost" { lost += 1 }
                    guard e.kind == "track" || e.kind == "track.recovered",
                          let n = try e.payload["boundingBox"]?.decode([Double].self), n.count == 4 else { continue }
                    found[i] = [n[0] * w, (1 - n[1] - n[3]) * h, n[2] * w, n[3] * h]
                }
            }
            seconds.append(elapsed)
            // OTB one-pass: a frame without a box keeps the last one.
            for i in found.indices where found[i].isEmpty { found[i] = i > 0 ? found[i - 1] : s.truth[0] }
            boxes = found
            losses = lost
        }
        return score("Lumatrace \(level.rawValue)", boxes: boxes, truth: s.truth, fps: Double(s.frameCount) / median(seconds), losses: losses)
    }

    static func measurePeers(_ s: TrackingSequence, pythons: [URL], runs: Int, scratch: String, tools: FFmpegTools) throws -> [TrackerScore] {
        let y4m = scratch + "/tracking-\(s.name).y4m"
        try Inputs.writeY4M(s.frames, width: s.width, height: s.height, rate: "30:1", to: y4m)
        defer { try? FileManager.default.removeItem(atPath: y4m) }
        let script = BenchSettings.benchmarksFolder.appendingPathComponent("opencv-peer/trackers.py").path
        let b = s.truth[0]
        // Per tracker, the faster OpenCV version.
        var best: [String: TrackerScore] = [:]
        for python in pythons {
            let out = try tools.run(python, [script, y4m, "--box", "\(b[0]),\(b[1]),\(b[2]),\(b[3])", "--trackers",
                                             peerTrackers.joined(separator: ","), "--runs", "\(runs)"])
            for line in String(decoding: out, as: UTF8.self).split(separator: "\n") {
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let name = object["tracker"] as? String, let version = object["opencv"] as? String,
                      let fps = object["fps"] as? Double, let raw = object["boxes"] as? [[Double]] else {
                    throw InputError("\(script): unreadable output line '\(line.prefix(120))'")
                }
                let scored = score("OpenCV \(version) \(name)", boxes: raw, truth: s.truth, fps: fps,
                                   losses: object["lostFrames"] as? Int ?? 0)
                if best[name].map({ fps > $0.framesPerSecond }) ?? true { best[name] = scored }
            }
        }
        return peerTrackers.compactMap { best[$0] }
    }

    /// Frames/s with 1, 16 and 64 tracks at once on the same frames: boxes of 48×48 pixels on a
    /// grid over the frame (what they hold does not matter for the cost).
    static func measureScaling(_ s: TrackingSequence, settings: BenchSettings) throws {
        let runs = settings.runs
        var rows = [["  tracks at once (\(s.name), \(s.width)x\(s.height))", "fast frames/s", "accurate frames/s", "accurate track-frames/s"]]
        var json: [JSON] = []
        for count in [1, 16, 64] {
            let side = Int(Double(count).squareRoot().rounded(.up))
            var seeds: [String] = []
            for i in 0..<count {
                let (gx, gy) = (i % side, i / side)
                let x = (Double(gx) + 0.5) / Double(side) * Double(s.width) - 24, y = (Double(gy) + 0.5) / Double(side) * Double(s.height) - 24
                seeds.append(String(format: "%.6f,%.6f,%.6f,%.6f", x / Double(s.width), 1 - (y + 48) / Double(s.height),
                                    48 / Double(s.width), 48 / Double(s.height)))
            }
            var fps: [Double] = []
            for level in TrackingConfiguration.Level.allCases {
                var configuration = TrackingConfiguration()
                configuration.trackingLevel = level
                configuration.seeds = seeds.joined(separator: ";")
                let stream = StreamInfo(width: s.width, height: s.height, timescale: 30, nominalFrameRate: 30, frameCount: s.frameCount,
                                        identity: "bench-scaling")
                var seconds: [Double] = []
                for _ in 0..<runs {
                    var analyzer = try TrackingAnalyzer(configuration: configuration, context: AnalyzerContext(stream: stream))
                    let size = s.width * s.height
                    seconds.append(try s.frames.withUnsafeBufferPointer { all in
                        try Stopwatch.seconds {
                            for i in 0..<s.frameCount {
                                var sink = EventSink()
                                try analyzer.analyze(Frame(index: i, timestamp: Timestamp(ticks: Int64(i), timescale: 30), width: s.width,
                                                           height: s.height, pixels: UnsafeBufferPointer(rebasing: all[(i * size)..<((i + 1) * size)])),
                                                     into: &sink)
                            }
                        }
                    })
                }
                fps.append(Double(s.frameCount) / median(seconds))
            }
            rows.append(["  \(count)", fixed(fps[0], 1), fixed(fps[1], 1), fixed(fps[1] * Double(count), 0)])
            json.append(.object([("tracks", .int(count)), ("fast_fps", .number(fps[0], 2)), ("accurate_fps", .number(fps[1], 2))]))
        }
        if !settings.jsonOnly { print(aligned(rows, rightAligned: [1, 2, 3]).joined(separator: "\n")) }
        let header: [(String, JSON)] = [("benchmark", .string("tracking-scaling"))] + settings.provenance.jsonFields + [("runs", .int(runs))]
        print(JSON.object(header + [("input", .string(s.name)), ("results", .array(json))]).text)
    }

    // MARK: - Scores

    /// OTB success AUC and precision at 20 px, with the rules `lumatrace score` uses
    /// (``intersectionOverUnion``, ``TrackingScore/successAUC(_:)``).
    static func score(_ tracker: String, boxes: [[Double]], truth: [[Double]], fps: Double, losses: Int) -> TrackerScore {
        let n = min(boxes.count, truth.count)
        var ious: [Double] = [], hits20 = 0
        for i in 0..<n {
            let (a, b) = (boxes[i], truth[i])
            ious.append(intersectionOverUnion(a, b))
            let dx = a[0] + a[2] / 2 - b[0] - b[2] / 2, dy = a[1] + a[3] / 2 - b[1] - b[3] / 2
            if (dx * dx + dy * dy).squareRoot() <= 20 { hits20 += 1 }
        }
        return TrackerScore(tracker: tracker, auc: TrackingScore.successAUC(ious), precision20: Double(hits20) / Double(max(n, 1)),
                            framesPerSecond: fps, losses: losses)
    }
}
