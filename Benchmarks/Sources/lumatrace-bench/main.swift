// lumatrace-bench: how fast Lumatrace records and decodes, and how small its files are, against
// memcpy, FFV1 and x264-lossless, on the same frames in one run. Run it with `Benchmarks/run`.
// `Benchmarks/run trajectory` measures the trajectory analyzer against OpenCV instead (Trajectory.swift).
import Foundation
import LumaFormat

let usage = """
    USAGE: Benchmarks/run [--runs N] [--data DIR] [--only synthetic|vtest|cdnet]... [--level N] [--chunk-seconds S] [--json]
           Benchmarks/run trajectory [--runs N] [--data DIR] [--only 720p|1080p]... [--level N] [--chunk-seconds S] [--json]
           Benchmarks/run tracking [--runs N] [--data DIR] [--only-lumatrace] [--json]
           Benchmarks/run external [--runs N]

    Measures, on the same frames and in one run, memcpy, Lumatrace record and decode (one thread,
    in-process) and ffmpeg's FFV1 and x264-lossless (one thread each, as subprocesses), and prints
    per input a table of medians, the key ratios and the issue's targets with PASS/FAIL, then one
    JSON line per input.

    OPTIONS:
      --runs N             repeat every measurement N times and report the median (default 5)
      --data DIR           shared data folder holding the real clips
                           (default: ../shared/data next to the package root, i.e. \(BenchSettings.defaultDataDirectory))
      --only NAME          measure only this input: synthetic, vtest or cdnet (repeatable, or comma-separated)
      --level N            zstd level for RecordingWriterOptions (default: the writer's, \(RecordingWriterOptions().compressionLevel))
      --chunk-seconds S    chunks of S seconds of recording time, without the writer's byte minimum
                           (RecordingWriterOptions.fixedDuration(S); default: the writer's defaults, as `lumatrace record`)
      --json               print only the JSON lines (progress still goes to standard error)
      -h, --help           show this help

    trajectory (or --trajectory): instead of the codecs, measures the trajectory analyzer (one thread,
    default configuration) on basketball-court-shots/three_score_two_miss.mp4 scaled to 720p and 1080p:
    frames/s on frames in memory and with .luma decoding included, against OpenCV's MOG2 + findContours
    and three-frame differencing + connectedComponentsWithStats (opencv-peer/peer.py, one thread, every
    Benchmarks/.venv-opencv-* venv; runs opencv-peer/setup when one is missing), with the targets
    analyzer ÷ MOG2 ≥ 3×, analyzer ÷ diff3 ≥ 1× and ≥ 1000 frames/s at 720p; then the analyzer's peak
    RSS over a 1-minute and a 10-minute 720p stream (child processes). --only takes 720p or 1080p there;
    --level and --chunk-seconds apply to the .luma of the decode-included measurement.

    tracking (or --tracking): measures the tracking analyzer (fast and accurate, one seed, one thread)
    against OpenCV's KCF, CSRT, MOSSE and MIL (opencv-peer/trackers.py, one thread, the faster OpenCV
    version per tracker), each seeded with the same first-frame box, on otb-crossing, vot2015-ball1
    (its polygons as axis-aligned boxes) and 10 `synth tracking` scenes (seeds 1-10, first object):
    OTB success AUC, precision at 20 px, frames/s, per sequence and on average, with issue 4's targets.
    --only-lumatrace measures only Lumatrace's levels (no OpenCV peers, no targets, no scaling table):
    a quick loop while tuning the tracker.

    external (or --external): the external analyzer's subprocess protocol at 720p (300 synthetic frames,
    one thread): the Python brightness histogram and a protocol-only Python program, against the same
    histogram as an in-process Swift analyzer.

    Needs ffmpeg and ffprobe with libx264 (`sudo apt-get install ffmpeg`). Scratch files go to
    /dev/shm when it exists (else the temp dir) and are removed at the end.
    """

/// What a run measures and how, from the command line.
struct BenchSettings {
    /// The root of the Lumatrace package (this file is `Benchmarks/Sources/lumatrace-bench/main.swift`).
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
    /// `../shared/data` next to the package root.
    static var defaultDataDirectory: String { packageRoot.appendingPathComponent("../shared/data").standardizedFileURL.path }

    var runs = 5
    var dataDirectory = BenchSettings.defaultDataDirectory
    var only: [InputKind] = []
    var level = RecordingWriterOptions().compressionLevel
    var chunkSeconds: Double?
    var jsonOnly = false
    /// `trajectory`: measure the trajectory analyzer against OpenCV instead of the codecs.
    var trajectory = false
    /// `tracking`: measure the tracking analyzer against OpenCV's trackers instead of the codecs.
    var tracking = false
    /// `external`: measure the external analyzer's protocol instead of the codecs.
    var external = false
    /// `--only-lumatrace` for `tracking`: measure Lumatrace's levels only, without the OpenCV
    /// peers and the scaling table.
    var onlyLumatrace = false
    /// `--only` for `trajectory`: the sizes to measure (empty: all).
    var onlySizes: [TrajectorySize] = []
    /// Where scratch files live, for the report: "/dev/shm" or the temp dir.
    var scratchKind = ""

    /// The inputs to measure, in their fixed order.
    var inputs: [InputKind] { only.isEmpty ? InputKind.allCases : InputKind.allCases.filter(only.contains) }
    /// The sizes the trajectory benchmark measures, in their fixed order.
    var trajectorySizes: [TrajectorySize] {
        onlySizes.isEmpty ? TrajectorySize.allCases : TrajectorySize.allCases.filter(onlySizes.contains)
    }

    /// The writer options every Lumatrace recording in this run uses.
    /// The writer options every Lumatrace recording in this run uses: the writer's defaults (what
    /// `lumatrace record` uses), or chunks of exactly `chunkSeconds` without a byte minimum.
    var options: RecordingWriterOptions {
        var o = chunkSeconds.map(RecordingWriterOptions.fixedDuration) ?? RecordingWriterOptions()
        o.compressionLevel = level
        return o
    }

    /// The chunking rule in words, e.g. "chunks ≥ 1.00 s and ≥ 16 MiB, at most 10.00 s or 64 MiB".
    var chunkDescription: String {
        let o = options
        func mib(_ bytes: Int) -> String { bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes" }
        let least = o.minimumChunkBytes > 0 ? " and ≥ \(mib(o.minimumChunkBytes))" : ""
        return "chunks ≥ \(fixed(o.chunkDuration, 2)) s\(least), at most \(fixed(o.maximumChunkDuration, 2)) s or \(mib(o.maximumChunkBytes))"
    }

    /// Parses the arguments after the program name; throws a message for the user on a mistake.
    static func parse(_ arguments: [String]) throws -> BenchSettings? {
        var settings = BenchSettings()
        var rest = arguments[...]
        var onlyNames: [String] = []
        func value(_ flag: String) throws -> String {
            guard let v = rest.popFirst() else { throw InputError("\(flag) needs a value") }
            return v
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "-h", "--help": return nil
            case "--runs":
                let v = try value(flag)
                guard let n = Int(v), n >= 1 else { throw InputError("--runs needs a whole number ≥ 1, got '\(v)'") }
                settings.runs = n
            case "--data": settings.dataDirectory = try value(flag)
            case "trajectory", "--trajectory": settings.trajectory = true
            case "tracking", "--tracking": settings.tracking = true
            case "external", "--external": settings.external = true
            case "--only": onlyNames += try value(flag).split(separator: ",").map(String.init)
            case "--level":
                let v = try value(flag)
                guard let n = Int(v) else { throw InputError("--level needs a whole number, got '\(v)'") }
                settings.level = n
            case "--chunk-seconds":
                let v = try value(flag)
                guard let s = Double(v), s > 0, s.isFinite else { throw InputError("--chunk-seconds needs a number of seconds > 0, got '\(v)'") }
                settings.chunkSeconds = s
            case "--json": settings.jsonOnly = true
            case "--only-lumatrace": settings.onlyLumatrace = true
            default: throw InputError("unknown argument '\(flag)' (see --help)")
            }
        }
        // --only names inputs or, for `trajectory`, sizes: checked once the mode is known.
        for name in onlyNames {
            if settings.trajectory {
                guard let size = TrajectorySize(rawValue: name) else {
                    throw InputError("--only takes \(TrajectorySize.allCases.map(\.rawValue).joined(separator: ", ")) with trajectory; got '\(name)'")
                }
                settings.onlySizes.append(size)
            } else {
                guard let kind = InputKind(rawValue: name) else {
                    throw InputError("--only takes \(InputKind.allCases.map(\.rawValue).joined(separator: ", ")); got '\(name)'")
                }
                settings.only.append(kind)
            }
        }
        return settings
    }
}

/// Runs every measurement on one input, `settings.runs` times, interleaved run by run so that
/// noise from other processes spreads over all methods alike.
func measure(_ input: BenchInput, settings: BenchSettings, tools: FFmpegTools, scratch: String) throws -> InputResult {
    var result = InputResult(input: InputSummary(input), settings: settings)
    let name = input.kind.rawValue
    let recording = scratch + "/\(name).luma"
    let peerFiles = Dictionary(uniqueKeysWithValues: Peer.allCases.map { ($0, scratch + "/\(name).\($0.rawValue).mkv") })
    defer {
        try? FileManager.default.removeItem(atPath: recording)
        for file in peerFiles.values { try? FileManager.default.removeItem(atPath: file) }
    }

    // Untimed: one recording, decoded and compared frame by frame, so every timed run below is
    // known to measure a lossless round trip (and the code and caches are warm).
    log("\(name): checking that Lumatrace gives back every frame exactly")
    _ = try LumatraceMeasure.record(input, to: recording, options: settings.options)
    try LumatraceMeasure.verifyLossless(recording, input: input)
    let expectedProbe = LumatraceMeasure.probeSum(input)
    var copy = [UInt8](repeating: 0xA5, count: input.rawBytes)

    for run in 1...settings.runs {
        log("\(name): run \(run) of \(settings.runs): memcpy, Lumatrace record and decode, "
            + Peer.allCases.map(\.rawValue).joined(separator: " and ") + " encode and decode")
        result.memcpy.append(LumatraceMeasure.memcpy(input, into: &copy))

        let recorded = try LumatraceMeasure.record(input, to: recording, options: settings.options)
        result.record.append(recorded.seconds)
        result.lumatraceBytes = Int(recorded.summary.fileSize)
        result.chunkCount = recorded.summary.chunkCount

        let decoded = try LumatraceMeasure.decode(recording)
        guard decoded.probe == expectedProbe else {
            throw MeasureError(description: "\(recording): decoded frames differ from the recorded ones (probe sum \(decoded.probe), expected \(expectedProbe))")
        }
        result.decode.append(decoded.seconds)

        for peer in Peer.allCases {
            let file = peerFiles[peer]!
            var samples = result.peers[peer] ?? PeerSamples()
            samples.encode.append(try peer.encode(input, to: file, tools: tools))
            samples.bytes = try fileSize(file)
            samples.decode.append(try peer.decode(file, tools: tools))
            result.peers[peer] = samples
        }
    }
    return result
}

/// Size of a file in bytes.
func fileSize(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    guard let size = (attributes[.size] as? NSNumber)?.intValue else { throw InputError("\(path): size unknown") }
    return size
}

/// Creates a private scratch folder in /dev/shm (memory-backed, so file I/O is not what is
/// measured) or, without it, in the temp dir.
func makeScratch() throws -> (path: String, kind: String) {
    let shm = FileManager.default.fileExists(atPath: "/dev/shm")
    let base = shm ? "/dev/shm" : NSTemporaryDirectory()
    var template = Array((base as NSString).appendingPathComponent("lumatrace-bench.XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw InputError("cannot create a scratch folder in \(base)") }
    return (String(cString: made), shm ? "/dev/shm" : "the temp dir (\(base))")
}

/// Checks the writer options up front (before minutes of preparation) by creating a tiny recording.
func checkWriterOptions(_ settings: BenchSettings, scratch: String) throws {
    let path = scratch + "/options-check.luma"
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
        let writer = try RecordingWriter(path: path, header: RecordingHeader(width: 16, height: 16, timescale: 90_000, rateNumerator: 30),
                                         options: settings.options)
        try writer.append([UInt8](repeating: 0, count: 256), ticks: 0)
        try writer.close()
    } catch {
        throw InputError("--level \(settings.level)\(settings.chunkSeconds.map { " --chunk-seconds \($0)" } ?? ""): the writer refuses these options: \(error)")
    }
}

func main() -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == TrajectoryBench.childFlag { return TrajectoryBench.child(Array(arguments.dropFirst())) }
    var settings: BenchSettings
    do {
        guard let parsed = try BenchSettings.parse(arguments) else {
            print(usage)
            return 0
        }
        settings = parsed
    } catch {
        log("lumatrace-bench: \(error)\n\n\(usage)")
        return 2
    }

    let scratch: String
    do {
        (scratch, settings.scratchKind) = try makeScratch()
    } catch {
        log("lumatrace-bench: \(error)")
        return 1
    }
    defer { try? FileManager.default.removeItem(atPath: scratch) }

    if settings.tracking {
        return TrackingBench.run(settings: settings, scratch: scratch)
    }
    if settings.external {
        return ExternalBench.run(settings: settings, scratch: scratch)
    }
    if settings.trajectory {
        do { try checkWriterOptions(settings, scratch: scratch) } catch {
            log("lumatrace-bench: error: \(error)")
            return 1
        }
        return TrajectoryBench.run(settings: settings, scratch: scratch)
    }

    var results: [InputResult] = []
    do {
        try checkWriterOptions(settings, scratch: scratch)
        let tools = try FFmpegTools.locate(scratch: scratch)
        log("lumatrace-bench: \(settings.runs) run\(settings.runs == 1 ? "" : "s") per measurement, zstd level \(settings.level), "
            + "\(settings.chunkDescription); scratch \(scratch)")
        for kind in settings.inputs {
            log("\(kind.rawValue): preparing frames")
            let prepared: BenchInput? = kind == .synthetic
                ? try Inputs.synthetic(scratch: scratch)
                : try Inputs.clip(kind, dataDirectory: settings.dataDirectory, scratch: scratch, tools: tools)
            guard let input = prepared else { continue }
            defer { try? FileManager.default.removeItem(atPath: input.y4mPath) }
            let result = try measure(input, settings: settings, tools: tools, scratch: scratch)
            if !settings.jsonOnly {
                print(result.table())
                print("")
            }
            results.append(result)
        }
    } catch {
        log("lumatrace-bench: error: \(error)")
        return 1
    }

    printSummary(results, jsonOnly: settings.jsonOnly, nothingMeasured: "no input was measured")
    return 0
}

exit(main())
