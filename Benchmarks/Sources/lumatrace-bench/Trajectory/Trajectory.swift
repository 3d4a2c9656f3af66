// `lumatrace-bench trajectory`: how fast the trajectory analyzer runs, one thread, in each of its
// designs, against OpenCV (opencv-peer/peer.py) on the same frames, and how much memory it holds
// over a long stream.
import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaFormat
import TrajectoryAnalyzer

/// The size classes every real clip is scaled to, in the order they run: a frame of a class has
/// the pixel count of that video size (1280×720 or 1920×1080), laid out in the clip's orientation.
enum TrajectorySize: String, CaseIterable, Sendable {
    case p720 = "720p"
    case p1080 = "1080p"

    /// The long side of the frame: 1280 or 1920.
    var longSide: Int { self == .p720 ? 1280 : 1920 }
    /// The short side of the frame: 720 or 1080.
    var shortSide: Int { self == .p720 ? 720 : 1080 }
}

/// The real clips the trajectory benchmark measures, from the shared data folder: footage where
/// people move while balls fly, which is what made version 2 of the analyzer ~10× slower than
/// version 1 (synthetic scenes and empty backgrounds did not show it).
enum TrajectoryClip: String, CaseIterable, Sendable {
    /// Basketball shots on a court, 960×540 landscape, 374 frames at 30 fps: players run and jump.
    case court
    /// A three-ball cascade against a white wall, a 478×850 portrait phone video, 531 frames at
    /// 30 fps: the juggler's arms and body move behind the balls all the time.
    case juggling

    /// The clip's file inside the data folder.
    var path: String {
        switch self {
        case .court: return "basketball-court-shots/three_score_two_miss.mp4"
        case .juggling: return "juggling-3ball-cascade/ss3_id_01.mp4"
        }
    }

    /// Whether the clip is taller than wide. A portrait clip is scaled to a size class turned on its
    /// side (720×1280, 1080×1920): the same pixel count, so the same work per frame, as its
    /// landscape sibling, and an aspect of 9:16, which is the juggling clip's own (478/850 =
    /// 0.5624 against 0.5625), so nothing is stretched. Scaling to a height of 720 or 1080 instead
    /// would give 405×720 or 607×1080: a third of the pixels, not the same class of load.
    var isPortrait: Bool { self == .juggling }

    /// The frame size of this clip at `size`: long × short for a landscape clip, short × long for
    /// a portrait one.
    func dimensions(_ size: TrajectorySize) -> (width: Int, height: Int) {
        isPortrait ? (size.shortSide, size.longSide) : (size.longSide, size.shortSide)
    }
}

/// One input of the trajectory benchmark: a real clip at a size class, named `court-720p`,
/// `juggling-1080p`… (the name its table, its JSON line and `targets.json` use).
struct TrajectoryInputKind: Hashable, Sendable {
    let clip: TrajectoryClip
    let size: TrajectorySize

    var name: String { "\(clip.rawValue)-\(size.rawValue)" }
    var width: Int { clip.dimensions(size).width }
    var height: Int { clip.dimensions(size).height }

    /// Every input, in the order they run: each clip at each size.
    static let all: [TrajectoryInputKind] = TrajectoryClip.allCases.flatMap { clip in
        TrajectorySize.allCases.map { TrajectoryInputKind(clip: clip, size: $0) }
    }
}

/// One word of `trajectory --only`: an input (`court-720p`), a clip (`juggling`: both its sizes) or
/// a size (`720p`: every clip at it). The inputs measured are those any word selects.
enum TrajectorySelection: Equatable, Sendable {
    case input(TrajectoryInputKind)
    case clip(TrajectoryClip)
    case size(TrajectorySize)

    /// Parses one word, refusing an unknown one with every word it could have been.
    init(parsing word: String) throws(InputError) {
        if let input = TrajectoryInputKind.all.first(where: { $0.name == word }) {
            self = .input(input)
        } else if let clip = TrajectoryClip(rawValue: word) {
            self = .clip(clip)
        } else if let size = TrajectorySize(rawValue: word) {
            self = .size(size)
        } else {
            throw InputError("'\(word)' is not a trajectory input, clip or size; name an input ("
                             + TrajectoryInputKind.all.map(\.name).joined(separator: ", ") + "), a clip ("
                             + TrajectoryClip.allCases.map(\.rawValue).joined(separator: ", ") + ") or a size ("
                             + TrajectorySize.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
    }

    /// Whether this word selects `input`.
    func selects(_ input: TrajectoryInputKind) -> Bool {
        switch self {
        case .input(let named): return named == input
        case .clip(let clip): return input.clip == clip
        case .size(let size): return input.size == size
        }
    }
}

/// `trajectory --design`: which of the analyzer's designs (`TrajectoryConfiguration.Design`) to
/// measure on every input.
enum TrajectoryDesignChoice: String, CaseIterable, Sendable {
    /// Version 2's design, the analyzer's default.
    case tracking
    /// The design meant to replace it, which the targets of issue 43 judge.
    case window
    /// Both, each on the same frames, in `TrajectoryBench.designs`' order.
    case both

    /// The designs measured, in the order they run.
    var designs: [TrajectoryConfiguration.Design] {
        switch self {
        case .tracking: return [.tracking]
        case .window: return [.window]
        case .both: return TrajectoryBench.designs
        }
    }
}

/// One `trajectory --memory-minutes` value: the stream lengths of the memory measurement, for one
/// design or (without a prefix) for every design. `1,10`, `tracking:1`, `none`, `window:none`.
struct TrajectoryMemoryMinutes: Equatable, Sendable {
    /// The design it is for; `nil`: every design a prefixed value does not set.
    let design: TrajectoryConfiguration.Design?
    /// Minutes of recording time per stream, each in its own child process; empty: no memory measurement.
    let minutes: [Int]

    /// Parses `[DESIGN:]M[,M…]` or `[DESIGN:]none`, refusing anything else with what it takes.
    init(parsing text: String) throws(InputError) {
        let usage = "--memory-minutes takes [DESIGN:]M[,M…] (whole minutes ≥ 1) or [DESIGN:]none, "
            + "DESIGN being \(TrajectoryBench.designs.map(\.rawValue).joined(separator: " or ")); e.g. 1,10 or tracking:1"
        var list = Substring(text)
        if let colon = text.firstIndex(of: ":") {
            let name = String(text[..<colon])
            guard let design = TrajectoryConfiguration.Design(rawValue: name) else {
                throw InputError("'\(text)': no design '\(name)'; \(usage)")
            }
            self.design = design
            list = text[text.index(after: colon)...]
        } else {
            design = nil
        }
        if list == "none" {
            minutes = []
            return
        }
        var minutes: [Int] = []
        for word in list.split(separator: ",", omittingEmptySubsequences: false) {
            guard let m = Int(word), m >= 1 else { throw InputError("'\(text)': '\(word)' is not a whole number of minutes ≥ 1; \(usage)") }
            minutes.append(m)
        }
        self.minutes = minutes
    }
}

enum TrajectoryBench {
    /// The OpenCV versions `opencv-peer/setup` installs by default, one venv each.
    static let opencvVersions = ["4.12.0.88", "5.0.0.93"]
    /// The analyzer's designs, in the order the benchmark measures them: version 2's `tracking`
    /// (the default configuration's) and `window`, the design meant to replace it.
    static let designs = TrajectoryConfiguration.Design.allCases
    /// The long streams of the memory measurement, in minutes of recording time, unless
    /// `--memory-minutes` says otherwise. At `tracking`'s ~36 frames/s on `court-720p` the 10-minute
    /// stream (18,000 frames) alone takes ~8 minutes; at `window`'s speed, under half a minute.
    static let defaultMemoryMinutes = [1, 10]
    /// The one input the memory measurement runs on (it takes minutes; one input shows whether
    /// memory grows with the stream's length).
    static let memoryInput = TrajectoryInputKind(clip: .court, size: .p720)
    /// The hidden subcommand that makes the benchmark a memory-measurement child process.
    static let childCommand = "trajectory-memory-child"
}

/// A clip at one size, held in memory, plus the same frames as a gray `.y4m` for the peer.
struct TrajectoryInput {
    /// What it is and its size: all the report needs once the frames are released.
    let summary: TrajectoryInputSummary
    /// `summary.frameCount` frames of `width × height` bytes, back to back.
    var frames: [UInt8]
    let y4mPath: String

    var frameSize: Int { summary.width * summary.height }
    /// Timestamps: timescale = the rate's numerator, frame `i` at `i × denominator` ticks (exact).
    var timescale: Int64 { Int64(summary.rateNumerator) }
    func ticks(_ i: Int) -> Int64 { Int64(i) * Int64(summary.rateDenominator) }
}

/// One event as the analyzer emitted it, with the frame it was emitted at.
struct StampedEvent: Equatable {
    let frame: Int
    let event: EventSink.Emitted
}

extension [StampedEvent] {
    var trajectoryCount: Int { self.count(where: { $0.event.kind == "trajectory" }) }
    var endCount: Int { self.count(where: { $0.event.kind == "trajectory.end" }) }
}

/// One OpenCV version's run of `peer.py` on one input.
struct OpenCVRun {
    /// `cv2.__version__`, e.g. "5.0.0".
    let version: String
    let mog2: [Double]
    let diff3: [Double]
    let frames: Int
    var mog2FPS: Double { Double(frames) / median(mog2) }
    var diff3FPS: Double { Double(frames) / median(diff3) }
}

/// What one long-stream child process reported, and its peak RSS as the parent saw it.
struct MemoryResult {
    let minutes: Int
    let frames: Int
    let loops: Int
    let seconds: Double
    /// The child's memory after the runtime started, the frame buffer was allocated and the first
    /// frame read, before the analyzer existed.
    let baseline: MemoryStatus
    /// The child's memory after `finish`: its `hwm` is the peak RSS over the whole run.
    let end: MemoryStatus
    /// VmRSS at the end of every minute of recording time (KiB).
    let rssPerMinute: [Int]
    let trajectories: Int
    let ends: Int

    var analyzerKiB: Int { end.hwm - baseline.hwm }
}

/// A process's VmHWM (the high-water mark of its resident set since `exec`) and VmRSS, in KiB, as
/// /proc/self/status gives them.
struct MemoryStatus {
    var hwm: Int
    var rss: Int
}

/// Everything measured on one input with one design. The OpenCV runs are the input's, shared by
/// every design measured on it.
struct TrajectoryResult {
    let input: TrajectoryInputSummary
    let design: TrajectoryConfiguration.Design
    let settings: BenchSettings
    var analyzer: [Double] = []
    var decodeAnalyze: [Double] = []
    var lumatraceBytes = 0
    var chunkCount = 0
    var events: [StampedEvent] = []
    var opencv: [OpenCVRun] = []
    var memory: [MemoryResult] = []
}

/// A clip at one size: which input it is, the file it comes from, its size and its frame rate.
struct TrajectoryInputSummary {
    let kind: TrajectoryInputKind
    /// The clip's path inside the data folder.
    let source: String
    let width: Int
    let height: Int
    let frameCount: Int
    /// The clip's frame rate, `rateNumerator / rateDenominator` frames per second.
    let rateNumerator: Int
    let rateDenominator: Int

    /// "30" or "30000/1001".
    var rate: String { rateDenominator == 1 ? "\(rateNumerator)" : "\(rateNumerator)/\(rateDenominator)" }
}

// MARK: - Running

extension TrajectoryBench {
    /// The whole `trajectory` benchmark: every selected input with every selected design, each
    /// input × design's table as it is measured (unless `--json`), then the summary of targets and
    /// floors and one JSON line per input × design; exits with `FloorCheck.missedStatus` after all
    /// that when a floor was missed.
    static func run(settings: BenchSettings) throws {
        var settings = settings
        let inputs = settings.trajectoryInputs
        let results: [TrajectoryResult] = try Scratch.withFolder { scratch, kind in
            settings.scratchKind = kind
            let tools = try FFmpegTools.locate(scratch: scratch, needsPeerEncoders: false)
            // Every clip is checked before minutes of measuring.
            var clipPaths: [TrajectoryClip: String] = [:]
            for clip in Set(inputs.map(\.clip)).sorted(by: { $0.rawValue < $1.rawValue }) {
                let path = (settings.dataDirectory as NSString).appendingPathComponent(clip.path)
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw InputError("\(path) not found: the \(clip.rawValue) clip belongs in the shared data folder "
                                     + "(pass --data DIR to point at it; by default ../shared/data next to the package)")
                }
                clipPaths[clip] = path
            }
            let pythons = try opencvPythons(tools: tools)
            log("lumatrace-bench trajectory: \(inputs.map(\.name).joined(separator: ", ")); design\(settings.trajectoryDesigns.count == 1 ? "" : "s") "
                + settings.trajectoryDesigns.map(\.rawValue).joined(separator: ", ")
                + "; \(settings.runs) run\(settings.runs == 1 ? "" : "s") per measurement; OpenCV peers: \(pythons.map(\.path).joined(separator: ", ")); scratch \(scratch)")
            return try measureEachGroup(inputs, jsonOnly: settings.jsonOnly) { kind in
                log("\(kind.name): decoding \(kind.clip.path) scaled to \(kind.width)x\(kind.height)")
                let input = try prepare(kind, clipPath: clipPaths[kind.clip]!, scratch: scratch, tools: tools)
                defer { try? FileManager.default.removeItem(atPath: input.y4mPath) }
                return try measure(input, settings: settings, scratch: scratch, tools: tools, pythons: pythons)
            }
        }
        try printSummary(results, jsonOnly: settings.jsonOnly, nothingMeasured: "no input was measured").require()
    }

    /// The python of every OpenCV venv; runs `opencv-peer/setup` first when one is missing.
    static func opencvPythons(tools: FFmpegTools) throws -> [URL] {
        let expected = opencvVersions.map { BenchSettings.benchmarksFolder.appendingPathComponent(".venv-opencv-\($0)/bin/python") }
        if expected.allSatisfy({ FileManager.default.isExecutableFile(atPath: $0.path) }) { return expected }
        log("an OpenCV venv is missing: running Benchmarks/opencv-peer/setup (pip installs; may take minutes)")
        let setup = BenchSettings.benchmarksFolder.appendingPathComponent("opencv-peer/setup")
        let out = try tools.run(setup, opencvVersions)
        let ready = String(decoding: out, as: UTF8.self).split(separator: "\n").map { URL(fileURLWithPath: String($0)) }
            .filter { FileManager.default.isExecutableFile(atPath: $0.path) }
        guard !ready.isEmpty else { throw InputError("opencv-peer/setup made no OpenCV venv") }
        return ready
    }

    /// How far a clip's aspect ratio may be from its scaled frame's (1%): more would stretch it.
    static let aspectTolerance = 0.01

    /// Decodes the clip once, scaled to `kind`'s frame size, into memory, and writes it once as a
    /// `C mono` `.y4m`: its Y plane as coded (`extractplanes=y`, as `lumatrace record` stores luma),
    /// then scaled. Refuses a clip whose shape is not that of the frame (within `aspectTolerance`).
    static func prepare(_ kind: TrajectoryInputKind, clipPath: String, scratch: String, tools: FFmpegTools) throws -> TrajectoryInput {
        let probe = try tools.run(tools.ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height,r_frame_rate",
                                                  "-of", "csv=p=0", clipPath])
        let probed = String(decoding: probe, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let fields = probed.split(separator: ",")
        let rate = fields.count == 3 ? fields[2].split(separator: "/") : []
        guard fields.count == 3, let sourceWidth = Int(fields[0]), let sourceHeight = Int(fields[1]), sourceWidth > 0, sourceHeight > 0,
              rate.count == 2, let num = Int(rate[0]), let den = Int(rate[1]), num > 0, den > 0 else {
            throw InputError("\(clipPath): ffprobe did not report its video's width, height and frame rate (got '\(probed)')")
        }
        let (width, height) = (kind.width, kind.height)
        let aspect = Double(sourceWidth) / Double(sourceHeight), scaled = Double(width) / Double(height)
        guard abs(aspect / scaled - 1) <= aspectTolerance else {
            throw InputError("\(clipPath): \(sourceWidth)x\(sourceHeight) does not have the shape of \(kind.name)'s \(width)x\(height) "
                             + "(aspect \(fixed(aspect, 4)) vs \(fixed(scaled, 4))); scaling would stretch it: is this the clip "
                             + "TrajectoryClip.\(kind.clip.rawValue) expects (\(kind.clip.path), \(kind.clip.isPortrait ? "portrait" : "landscape"))?")
        }
        let raw = try tools.run(tools.ffmpeg, ["-v", "error", "-i", clipPath, "-map", "0:v:0", "-fps_mode", "passthrough",
                                               "-vf", "extractplanes=y,scale=\(width):\(height)", "-pix_fmt", "gray", "-f", "rawvideo", "-"])
        let frameSize = width * height
        guard !raw.isEmpty, raw.count % frameSize == 0, raw.count / frameSize >= 3 else {
            throw InputError("\(clipPath): ffmpeg produced \(raw.count) bytes, not a whole number (≥ 3) of \(width)x\(height) frames")
        }
        let frames = [UInt8](raw)
        let y4m = scratch + "/trajectory-\(kind.name).y4m"
        try Inputs.writeY4M(frames, width: width, height: height, rate: "\(num):\(den)", to: y4m)
        let summary = TrajectoryInputSummary(kind: kind, source: kind.clip.path, width: width, height: height,
                                             frameCount: frames.count / frameSize, rateNumerator: num, rateDenominator: den)
        return TrajectoryInput(summary: summary, frames: frames, y4mPath: y4m)
    }

    /// Every measurement on one input, one result per design (in `settings.trajectoryDesigns`'
    /// order). Lumatrace's measurements are interleaved run by run (each design on frames in
    /// memory, then with decoding), so that both designs see the same load; the peer then runs
    /// `settings.runs` times per OpenCV version in its own process, once for every design: each
    /// design's ratios are to the same peer figures. Last, on `memoryInput`, each design's memory.
    static func measure(_ input: TrajectoryInput, settings: BenchSettings, scratch: String, tools: FFmpegTools,
                        pythons: [URL]) throws -> [TrajectoryResult] {
        let designs = settings.trajectoryDesigns
        var results = designs.map { TrajectoryResult(input: input.summary, design: $0, settings: settings) }
        let name = input.summary.kind.name
        let recording = scratch + "/trajectory-\(name).luma"
        defer { try? FileManager.default.removeItem(atPath: recording) }

        // Untimed: the recording, its digest (the stream's name, as a replay passes it), and one
        // warm-up pass per design whose events every timed run of that design must repeat exactly.
        log("\(name): recording \(input.summary.frameCount) frames to \(recording) (untimed)")
        let summary = try record(input, to: recording, options: settings.options)
        let reader = try RecordingReader(path: recording)
        guard reader.readableFrameCount == input.summary.frameCount else {
            throw MeasureError(description: "\(recording): holds \(reader.readableFrameCount) readable frames, recorded \(input.summary.frameCount)")
        }
        let stream = StreamInfo(width: input.summary.width, height: input.summary.height, timescale: input.timescale,
                                nominalFrameRate: Double(input.summary.rateNumerator) / Double(input.summary.rateDenominator),
                                frameCount: input.summary.frameCount, identity: try reader.framesDigest().hexString)
        for k in results.indices {
            results[k].lumatraceBytes = Int(summary.fileSize)
            results[k].chunkCount = summary.chunkCount
            log("\(name): warm-up pass of the \(designs[k].rawValue) design (untimed)")
            results[k].events = try analyzeInMemory(input, stream: stream, design: designs[k]).events
        }

        for run in 1...settings.runs {
            for k in results.indices {
                let design = designs[k].rawValue
                log("\(name): run \(run) of \(settings.runs), \(design) design: analyzer on frames in memory, then decode + analyze")
                let inMemory = try analyzeInMemory(input, stream: stream, design: designs[k])
                guard inMemory.events == results[k].events else {
                    throw MeasureError(description: "\(name): run \(run) of the \(design) design gave different events than its warm-up pass "
                                       + "(the analyzer is not deterministic)")
                }
                results[k].analyzer.append(inMemory.seconds)
                let decoded = try decodeAndAnalyze(recording, stream: stream, design: designs[k])
                guard decoded.events == results[k].events else {
                    throw MeasureError(description: "\(name): decode + analyze with the \(design) design gave different events than the frames in memory "
                                       + "(\(decoded.events.count) vs \(results[k].events.count)); the recording does not give back the frames")
                }
                results[k].decodeAnalyze.append(decoded.seconds)
            }
        }

        let peer = BenchSettings.benchmarksFolder.appendingPathComponent("opencv-peer/peer.py").path
        var opencv: [OpenCVRun] = []
        for python in pythons {
            log("\(name): OpenCV peer \(python.path), \(settings.runs) run\(settings.runs == 1 ? "" : "s") each of mog2 and diff3"
                + (designs.count > 1 ? " (once, for every design)" : ""))
            opencv.append(try runPeer(python, script: peer, input: input, runs: settings.runs, tools: tools))
        }
        for k in results.indices { results[k].opencv = opencv }

        if input.summary.kind == memoryInput {
            for k in results.indices {
                for minutes in settings.memoryMinutes(for: designs[k]) {
                    let frames = minutes * 60 * input.summary.rateNumerator / input.summary.rateDenominator
                    log("\(name): peak RSS of the \(designs[k].rawValue) design over \(minutes) min (\(frames) frames, the clip looped), "
                        + "in a child process; about \(Int((Double(frames) / results[k].analyzerFPS).rounded())) s at the speed just measured")
                    results[k].memory.append(try measureMemory(input, design: designs[k], frames: frames, minutes: minutes,
                                                               scratch: scratch, tools: tools))
                }
            }
        }
        return results
    }

    /// Records every frame (writer defaults unless `--level` / `--chunk-seconds`), replacing `path`.
    static func record(_ input: TrajectoryInput, to path: String, options: RecordingWriterOptions) throws -> RecordingSummary {
        try? FileManager.default.removeItem(atPath: path)
        let header = RecordingHeader(width: input.summary.width, height: input.summary.height, timescale: input.timescale,
                                     rateNumerator: input.summary.rateNumerator, rateDenominator: input.summary.rateDenominator,
                                     metadata: ["source": input.summary.source])
        let size = input.frameSize
        return try input.frames.withUnsafeBufferPointer { frames in
            let writer = try RecordingWriter(path: path, header: header, options: options)
            for i in 0..<input.summary.frameCount {
                try writer.append(pixels: UnsafeBufferPointer(rebasing: frames[(i * size)..<((i + 1) * size)]), ticks: input.ticks(i))
            }
            return try writer.close()
        }
    }

    /// A new analyzer: the default configuration but for `design`, whole frame, every frame analyzed.
    static func makeAnalyzer(_ stream: StreamInfo, design: TrajectoryConfiguration.Design) throws -> TrajectoryAnalyzer {
        var configuration = TrajectoryConfiguration()
        configuration.design = design
        return try TrajectoryAnalyzer(configuration: configuration, context: AnalyzerContext(stream: stream))
    }

    /// Times `analyze` on every in-memory frame plus `finish` (the analyzer is created before the clock).
    static func analyzeInMemory(_ input: TrajectoryInput, stream: StreamInfo,
                                design: TrajectoryConfiguration.Design) throws -> (seconds: Double, events: [StampedEvent]) {
        var analyzer = try makeAnalyzer(stream, design: design)
        var events: [StampedEvent] = []
        events.reserveCapacity(4096)
        let size = input.frameSize
        let seconds = try input.frames.withUnsafeBufferPointer { all in
            try Stopwatch.seconds {
                for i in 0..<input.summary.frameCount {
                    var sink = EventSink()
                    let frame = Frame(index: i, timestamp: Timestamp(ticks: input.ticks(i), timescale: input.timescale),
                                      width: input.summary.width, height: input.summary.height,
                                      pixels: UnsafeBufferPointer(rebasing: all[(i * size)..<((i + 1) * size)]))
                    try analyzer.analyze(frame, into: &sink)
                    for e in sink.events { events.append(StampedEvent(frame: i, event: e)) }
                }
                var sink = EventSink()
                try analyzer.finish(into: &sink)
                for e in sink.events { events.append(StampedEvent(frame: input.summary.frameCount - 1, event: e)) }
            }
        }
        return (seconds, events)
    }

    /// Times opening the recording, decoding every chunk with one `ChunkDecoder` (storage recycled,
    /// as a replay does) and analyzing every frame, plus `finish`.
    static func decodeAndAnalyze(_ path: String, stream: StreamInfo,
                                 design: TrajectoryConfiguration.Design) throws -> (seconds: Double, events: [StampedEvent]) {
        var analyzer = try makeAnalyzer(stream, design: design)
        var events: [StampedEvent] = []
        events.reserveCapacity(4096)
        let seconds = try Stopwatch.seconds {
            let reader = try RecordingReader(path: path)
            let h = reader.header
            let decoder = reader.makeDecoder()
            var last = 0
            for entry in reader.chunks {
                let chunk = try decoder.decode(entry)
                for k in 0..<chunk.count {
                    let i = entry.firstFrame + k
                    var sink = EventSink()
                    try chunk.withFrame(k, of: h) { try analyzer.analyze($0, into: &sink) }
                    for e in sink.events { events.append(StampedEvent(frame: i, event: e)) }
                    last = i
                }
                decoder.recycle(chunk)
            }
            var sink = EventSink()
            try analyzer.finish(into: &sink)
            for e in sink.events { events.append(StampedEvent(frame: last, event: e)) }
        }
        return (seconds, events)
    }

    /// Runs `peer.py` once with `--runs runs` and checks it saw the same frames.
    static func runPeer(_ python: URL, script: String, input: TrajectoryInput, runs: Int, tools: FFmpegTools) throws -> OpenCVRun {
        let out = try tools.run(python, [script, input.y4mPath, "--runs", "\(runs)"])
        let line = String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let json = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let version = json["opencv"] as? String, let frames = json["frames"] as? Int,
              let width = json["width"] as? Int, let height = json["height"] as? Int,
              let mog2 = (json["mog2"] as? [String: Any])?["seconds"] as? [Double],
              let diff3 = (json["diff3"] as? [String: Any])?["seconds"] as? [Double], !mog2.isEmpty, !diff3.isEmpty else {
            throw InputError("\(python.path) \(script): unexpected output '\(line)'")
        }
        guard frames == input.summary.frameCount, width == input.summary.width, height == input.summary.height else {
            throw InputError("\(script) read \(frames) frames of \(width)x\(height) from \(input.y4mPath), expected \(input.summary.frameCount) of \(input.summary.width)x\(input.summary.height)")
        }
        return OpenCVRun(version: version, mog2: mog2, diff3: diff3, frames: frames)
    }
}

// MARK: - Memory

extension TrajectoryBench {
    /// Runs this executable as a child that streams `frames` frames (the clip's `.y4m`, looped) through
    /// one analyzer of `design`, and returns what it reports.
    ///
    /// The peak is the child's own VmHWM (the high-water mark of its address space since `exec`),
    /// not `ru_maxrss` (see `ChildProcess.runSelf`): this parent holds every frame of the clip (~700 MiB at 720p).
    static func measureMemory(_ input: TrajectoryInput, design: TrajectoryConfiguration.Design, frames: Int, minutes: Int,
                              scratch: String, tools: FFmpegTools) throws -> MemoryResult {
        let output = scratch + "/memory-\(design.rawValue)-\(frames).json"
        let text = try ChildProcess.runSelf([childCommand, input.y4mPath, "\(frames)", "--design", design.rawValue], output: output,
                                            errorLog: tools.errorLog, what: "memory child (\(design.rawValue) design, \(frames) frames)")
        guard let json = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let n = json["frames"] as? Int, n == frames, let loops = json["loops"] as? Int, let seconds = json["seconds"] as? Double,
              let baseHWM = json["baseline_hwm_kib"] as? Int, let baseRSS = json["baseline_rss_kib"] as? Int,
              let peak = json["peak_hwm_kib"] as? Int, let final = json["final_rss_kib"] as? Int,
              let perMinute = json["rss_per_minute_kib"] as? [Int], let trajectories = json["trajectories"] as? Int,
              let ends = json["ends"] as? Int else {
            throw InputError("memory child (\(design.rawValue) design, \(frames) frames): unexpected output '\(text)'")
        }
        return MemoryResult(minutes: minutes, frames: frames, loops: loops, seconds: seconds,
                            baseline: MemoryStatus(hwm: baseHWM, rss: baseRSS), end: MemoryStatus(hwm: peak, rss: final),
                            rssPerMinute: perMinute, trajectories: trajectories, ends: ends)
    }

    /// The child: `lumatrace-bench trajectory-memory-child FILE.y4m FRAMES --design DESIGN`. Reads
    /// the gray `.y4m` one frame at a time into a single buffer (with `read`, so the file's pages in
    /// /dev/shm are never mapped into this process), rewinding at its end, and feeds `total` frames
    /// to one analyzer of `design`, stamped as one continuous stream. Prints one JSON line; returns
    /// the exit status.
    static func child(path: String, total: Int, design: TrajectoryConfiguration.Design) -> Int32 {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { log("\(path): cannot open"); return 1 }
        defer { close(fd) }

        // Header line: W, H, F; gray only.
        var header: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1, byte != 0x0A, header.count < 4096 { header.append(byte) }
        let fields = String(decoding: header, as: UTF8.self).split(separator: " ")
        var width = 0, height = 0, num = 30, den = 1, mono = false
        for f in fields.dropFirst() {
            let value = f.dropFirst()
            switch f.first {
            case "W": width = Int(value) ?? 0
            case "H": height = Int(value) ?? 0
            case "F":
                let r = value.split(separator: ":")
                if r.count == 2, let n = Int(r[0]), let d = Int(r[1]), n > 0, d > 0 { (num, den) = (n, d) }
            case "C": mono = value == "mono"
            default: break
            }
        }
        guard fields.first == "YUV4MPEG2", width > 0, height > 0, mono else { log("\(path): not a gray (C mono) YUV4MPEG2 file"); return 1 }
        let dataStart = off_t(header.count + 1)
        let frameSize = width * height
        var pixels = [UInt8](repeating: 0, count: frameSize)
        var marker = [UInt8](repeating: 0, count: 6)
        var loops = 0

        /// Reads exactly `count` bytes into `buffer`; returns the bytes read (less only at end of file).
        func readFully(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
            var got = 0
            while got < count {
                let n = read(fd, buffer + got, count - got)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                got += n
            }
            return got
        }
        /// The next frame into `pixels`, rewinding to the first frame at the end of the file.
        func nextFrame() -> Bool {
            for attempt in 0..<2 {
                let got = marker.withUnsafeMutableBytes { readFully($0.baseAddress!, 6) }
                if got == 0 && attempt == 0 {
                    loops += 1
                    lseek(fd, dataStart, SEEK_SET)
                    continue
                }
                guard got == 6, marker == Array("FRAME\n".utf8) else { return false }
                return pixels.withUnsafeMutableBytes { readFully($0.baseAddress!, frameSize) } == frameSize
            }
            return false
        }

        guard nextFrame() else { log("\(path): cannot read the first frame"); return 1 }
        lseek(fd, dataStart, SEEK_SET)
        let baseline = memoryStatus()

        let stream = StreamInfo(width: width, height: height, timescale: Int64(num), nominalFrameRate: Double(num) / Double(den),
                                frameCount: total, identity: "memory-\(total)")
        let framesPerMinute = 60 * num / den
        var trajectories = 0, ends = 0
        var rssPerMinute: [Int] = []
        let start = ContinuousClock.now
        do {
            var analyzer = try makeAnalyzer(stream, design: design)
            func tally(_ sink: EventSink) {
                for e in sink.events {
                    if e.kind == "trajectory" { trajectories += 1 } else if e.kind == "trajectory.end" { ends += 1 }
                }
            }
            for i in 0..<total {
                guard nextFrame() else { log("\(path): frame \(i): truncated"); return 1 }
                var sink = EventSink()
                try pixels.withUnsafeBufferPointer { p in
                    try analyzer.analyze(Frame(index: i, timestamp: Timestamp(ticks: Int64(i) * Int64(den), timescale: Int64(num)),
                                               width: width, height: height, pixels: p), into: &sink)
                }
                tally(sink)
                if (i + 1) % framesPerMinute == 0 { rssPerMinute.append(memoryStatus().rss) }
            }
            var sink = EventSink()
            try analyzer.finish(into: &sink)
            tally(sink)
        } catch {
            log("analyzer failed: \(error)")
            return 1
        }
        let seconds = Stopwatch.seconds(since: start)
        let end = memoryStatus()
        print(JSON.object([
            ("frames", .int(total)), ("loops", .int(loops)), ("seconds", .number(seconds, 3)),
            ("baseline_hwm_kib", .int(baseline.hwm)), ("baseline_rss_kib", .int(baseline.rss)),
            ("peak_hwm_kib", .int(end.hwm)), ("final_rss_kib", .int(end.rss)),
            ("rss_per_minute_kib", .array(rssPerMinute.map { .int($0) })),
            ("trajectories", .int(trajectories)), ("ends", .int(ends)),
        ]).text)
        return 0
    }

    /// VmHWM and VmRSS of this process from /proc/self/status, in KiB (read with `read`: procfs
    /// files report size 0).
    static func memoryStatus() -> MemoryStatus {
        let fd = open("/proc/self/status", O_RDONLY)
        guard fd >= 0 else { return MemoryStatus(hwm: 0, rss: 0) }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 16384)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        guard n > 0 else { return MemoryStatus(hwm: 0, rss: 0) }
        var hwm = 0, rss = 0
        for line in String(decoding: bytes[0..<n], as: UTF8.self).split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count >= 2, let kib = Int(parts[1]) else { continue }
            if parts[0] == "VmHWM:" { hwm = kib } else if parts[0] == "VmRSS:" { rss = kib }
        }
        return MemoryStatus(hwm: hwm, rss: rss)
    }
}

// MARK: - Report

extension TrajectoryResult: BenchResult {
    /// "court-720p (window)": the input and the design, as the summary names them.
    var name: String { "\(input.kind.name) (\(design.rawValue))" }

    func fps(_ samples: [Double]) -> Double { Double(input.frameCount) / median(samples) }
    var analyzerFPS: Double { fps(analyzer) }
    var decodeAnalyzeFPS: Double { fps(decodeAnalyze) }
    /// The OpenCV run with the faster MOG2 detector, and with the faster diff3 detector.
    var fasterMOG2: OpenCVRun { opencv.max { $0.mog2FPS < $1.mog2FPS }! }
    var fasterDiff3: OpenCVRun { opencv.max { $0.diff3FPS < $1.diff3FPS }! }
    var versusMOG2: Double { analyzerFPS / fasterMOG2.mog2FPS }
    var versusDiff3: Double { analyzerFPS / fasterDiff3.diff3FPS }
    /// The whole process (decoding the .luma and analyzing) against the faster diff3 detector
    /// (issue 57's whole-process figure; the peer's frames are in memory, its decoding not counted).
    var decodeAnalyzeVersusDiff3: Double { decodeAnalyzeFPS / fasterDiff3.diff3FPS }

    /// The figures `Benchmarks/targets.json` may judge, in the order the report shows them.
    static let metricKeys = ["analyzer_vs_mog2", "analyzer_vs_diff3", "analyzer_fps", "decode_analyze_fps", "decode_analyze_vs_diff3"]

    /// This input's figures under those keys.
    var metrics: [Metric] {
        [
            Metric(key: "analyzer_vs_mog2", label: "analyzer ÷ MOG2+findContours (OpenCV \(fasterMOG2.version), the faster)",
                   value: versusMOG2, unit: .times),
            Metric(key: "analyzer_vs_diff3", label: "analyzer ÷ diff3+connectedComponents (OpenCV \(fasterDiff3.version), the faster)",
                   value: versusDiff3, unit: .times),
            Metric(key: "analyzer_fps", label: "analyzer frames/s per core", value: analyzerFPS, unit: .framesPerSecond),
            Metric(key: "decode_analyze_fps", label: "decode + analyze frames/s per core", value: decodeAnalyzeFPS, unit: .framesPerSecond),
            Metric(key: "decode_analyze_vs_diff3", label: "decode + analyze ÷ diff3+connectedComponents (OpenCV \(fasterDiff3.version), the faster)",
                   value: decodeAnalyzeVersusDiff3, unit: .times),
        ]
    }

    var checks: [TargetCheck] { settings.targets.checks(metrics, input: input.kind.name, design: design.rawValue) }

    func table() -> String {
        var lines: [String] = []
        let mbPerFrame = Double(input.width * input.height) / 1e6
        lines.append("== trajectory \(input.kind.name), design \(design.rawValue): \(input.source) scaled by ffmpeg to \(input.width)x\(input.height), its Y plane")
        lines.append("   \(input.frameCount) frames at \(input.rate) fps, \(fixed(mbPerFrame * Double(input.frameCount), 1)) MB raw; "
                     + "median of \(settings.runs) run\(settings.runs == 1 ? "" : "s"); one thread everywhere; "
                     + "events per run: \(events.trajectoryCount) trajectory, \(events.endCount) trajectory.end")
        lines.append("")
        let header = ["method", "frames/s", "ms/frame", "MB/s", "÷ faster MOG2", "÷ faster diff3"]
        let mog2 = fasterMOG2.mog2FPS, diff3 = fasterDiff3.diff3FPS
        func row(_ label: String, _ f: Double) -> [String] {
            [label, fixed(f, 1), fixed(1000 / f, 3), fixed(f * mbPerFrame, 1), fixed(f / mog2, 2) + "×", fixed(f / diff3, 2) + "×"]
        }
        var rows: [[String]] = [
            row("Lumatrace TrajectoryAnalyzer (\(design.rawValue)), frames in memory", analyzerFPS),
            row("Lumatrace decode .luma + analyze (\(design.rawValue))", decodeAnalyzeFPS),
        ]
        for run in opencv {
            rows.append(row("OpenCV \(run.version) MOG2 + findContours" + (opencv.count > 1 && run.version == fasterMOG2.version ? " (faster)" : ""),
                            run.mog2FPS))
        }
        for run in opencv {
            rows.append(row("OpenCV \(run.version) diff3 + CC with stats" + (opencv.count > 1 && run.version == fasterDiff3.version ? " (faster)" : ""),
                            run.diff3FPS))
        }
        lines += aligned([header] + rows, rightAligned: Set(1..<header.count)).map { "   " + $0 }
        lines.append("")
        lines.append("   analyzer: TrajectoryAnalyzer, default TrajectoryConfiguration but design = \(design.rawValue)"
                     + (design == TrajectoryConfiguration().design ? " (the default)" : "")
                     + ", whole frame, every frame; analyze ×\(input.frameCount) + finish, frames already in memory (decode excluded).")
        lines.append("   decode + analyze: RecordingReader open + ChunkDecoder (one, storage recycled) + analyze per frame + finish; "
                     + "the .luma (\(grouped(lumatraceBytes)) bytes, \(chunkCount) chunk\(chunkCount == 1 ? "" : "s"), zstd \(settings.level)) "
                     + "recorded once, untimed, to \(settings.scratchKind).")
        lines.append("   Both Lumatrace paths give the same events in every run (checked). Analyzer created before the clock.")
        lines.append("   OpenCV: opencv-peer/peer.py, one process per version with --runs \(settings.runs), cv2.setNumThreads(1), "
                     + "frames loaded from the .y4m before timing; Python loop included"
                     + (settings.trajectoryDesigns.count > 1 ? "; run once per input, the same figures for every design." : "."))
        lines.append("")
        lines.append("   key ratios (each against a baseline measured in this run):")
        var ratioRows: [[String]] = []
        for check in checks {
            ratioRows.append([check.metric.label, check.metric.format(check.metric.value), check.requirement, check.verdict])
        }
        ratioRows.append(["decode + analyze ÷ analyzer alone", fixed(decodeAnalyzeFPS / analyzerFPS, 3) + "×", "", ""])
        ratioRows.append(["decode + analyze ÷ faster MOG2", fixed(decodeAnalyzeFPS / mog2, 2) + "×", "", ""])
        lines += aligned(ratioRows, rightAligned: [1]).map { "     " + $0 }

        if !memory.isEmpty {
            lines.append("")
            lines.append("   memory: peak RSS of one analyzer (\(design.rawValue)) over a long \(input.kind.name) stream, each in its own child process "
                         + "(the clip's \(input.frameCount) frames looped, read one at a time from the .y4m into one buffer)")
            let header = ["stream", "frames", "rewinds", "baseline", "peak RSS", "analyzer share", "RSS per minute (MiB)", "frames/s"]
            let rows = memory.map { m -> [String] in
                ["\(m.minutes) min", grouped(m.frames), "\(m.loops)", mib(m.baseline.hwm), mib(m.end.hwm), mib(m.analyzerKiB),
                 m.rssPerMinute.map { fixed(Double($0) / 1024, 1) }.joined(separator: " "), fixed(Double(m.frames) / m.seconds, 1)]
            }
            lines += aligned([header] + rows, rightAligned: Set(1..<header.count - 2).union([header.count - 1])).map { "     " + $0 }
            lines.append("     baseline = the child's VmHWM before the analyzer existed (runtime, one frame buffer, first frame read);")
            lines.append("     peak RSS = its VmHWM (/proc/self/status) after finish: the child's peak since exec; analyzer share = peak − baseline.")
            lines.append("     (Not ru_maxrss: on Linux it keeps the high-water mark of the image exec replaced, here the parent's, which holds the frames.)")
            if memory.count >= 2, let first = memory.first, let last = memory.last {
                lines.append("     \(last.minutes) min − \(first.minutes) min peak: \(mib(last.end.hwm - first.end.hwm)) "
                             + "(memory does not grow with stream length if this is ~0).")
            }
        }
        return lines.joined(separator: "\n")
    }

    func mib(_ kib: Int) -> String { fixed(Double(kib) / 1024, 1) + " MiB" }

    func jsonLine() -> String {
        func timing(_ samples: [Double]) -> JSON {
            .object([("fps", .number(fps(samples), 2)), ("seconds", .array(samples.map { .number($0, 4) }))])
        }
        var fields = settings.jsonHeader(.trajectory) + [
            ("input", .string(input.kind.name)), ("design", .string(design.rawValue)),
            ("clip", .string(input.kind.clip.rawValue)), ("size", .string(input.kind.size.rawValue)),
            ("source", .string(input.source)),
            ("width", .int(input.width)), ("height", .int(input.height)), ("frames", .int(input.frameCount)),
            ("analyzer", timing(analyzer)),
            ("decode_analyze", .object([("fps", .number(decodeAnalyzeFPS, 2)), ("seconds", .array(decodeAnalyze.map { .number($0, 4) })),
                                        ("luma_bytes", .int(lumatraceBytes)), ("chunks", .int(chunkCount)), ("zstd_level", .int(settings.level))])),
            ("events", .object([("trajectory", .int(events.trajectoryCount)), ("trajectory_end", .int(events.endCount))])),
            ("opencv", .object(opencv.map { run in
                (run.version, .object([("mog2", timing(run.mog2)), ("diff3", timing(run.diff3))]))
            })),
            ("mog2", .object([("fps", .number(fasterMOG2.mog2FPS, 2)), ("opencv", .string(fasterMOG2.version))])),
            ("diff3", .object([("fps", .number(fasterDiff3.diff3FPS, 2)), ("opencv", .string(fasterDiff3.version))])),
        ] + checks.jsonFields
        if !memory.isEmpty {
            fields.append(("memory", .array(memory.map { m in
                .object([("minutes", .int(m.minutes)), ("frames", .int(m.frames)), ("baseline_hwm_kib", .int(m.baseline.hwm)),
                         ("peak_hwm_kib", .int(m.end.hwm)), ("analyzer_kib", .int(m.analyzerKiB)),
                         ("final_rss_kib", .int(m.end.rss)), ("rss_per_minute_kib", .array(m.rssPerMinute.map { .int($0) })),
                         ("fps", .number(Double(m.frames) / m.seconds, 2))])
            })))
        }
        return JSON.object(fields).text
    }
}
