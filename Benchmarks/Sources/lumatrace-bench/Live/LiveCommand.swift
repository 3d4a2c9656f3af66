import ArgumentParser
import DifferencingAnalyzer
import Dispatch
import Foundation
import LumaAnalysis
import LumaEngine
import LumaFormat
import LumaRecording
import LumaSynth
import Synchronization
import TrajectoryAnalyzer

/// `lumatrace-bench live`: how long a frame takes from its arrival to its events in the log, when
/// `record` analyzes as it records.
struct LiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Latency of analysis while recording: from a frame's arrival to its events in the log (median and 99th percentile).",
        discussion: """
            A synthetic 720p scene (balls in flight) arrives at 60 frames/s, paced by a monotonic \
            clock, and goes through the code `record --analyzer differencing --analyzer trajectory \
            --events LOG` runs (Recorder, LiveAnalysis: the recording and the log are written to \
            scratch files). For every frame it measures the time from its arrival (the source \
            handing it to the recorder) to its events being written to the log, and the analyzers' \
            own time on it. The target (issue 19): p99 latency ≤ one frame interval (16.7 ms) plus \
            the analyzers' median per-frame time, measured in the same run. Benchmarks/run live \
            runs it pinned to one core (taskset -c 0), recorder and analysis sharing it. Each run \
            gives a median and a 99th percentile; the report quotes the median of each over \
            --runs runs, judged against the live target of Benchmarks/targets.json \
            (p99_vs_budget: p99 ÷ (frame interval + analyzers' median) ≤ 1).

            Example:
              Benchmarks/run live --seconds 20 --runs 3
            """)

    @OptionGroup var common: RunOptions

    @Option(help: "Seconds of 60 frames/s input (1...600).")
    var seconds = 20

    @Option(help: "Frame size, WIDTHxHEIGHT.")
    var size = "1280x720"

    func validate() throws {
        guard (1...600).contains(seconds) else { throw ValidationError("--seconds \(seconds) is outside 1...600") }
        let parts = size.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (16...4096).contains(parts[0]), (16...4096).contains(parts[1]) else {
            throw ValidationError("--size \(size) is not WIDTHxHEIGHT within 16...4096")
        }
    }

    func run() throws {
        let settings = try BenchSettings.start(.live, common)
        let dims = size.split(separator: "x").compactMap { Int($0) }
        let (width, height) = (dims[0], dims[1])
        // Frames are drawn before the clock starts (drawing is not the camera's cost); a pool of
        // up to 5 s of the scene is played in a loop.
        let total = seconds * LiveResult.rate
        let pool = min(total, 5 * LiveResult.rate)
        let scene = try SyntheticScene(kind: .balls, settings: SceneSettings(width: width, height: height, frameCount: pool, seed: 7))
        log("drawing \(pool) frames of \(width)x\(height)…")
        let frames = (0..<pool).map { scene.frame($0) }
        var runs: [LiveRun] = []
        for run in 1...settings.runs {
            log("run \(run) of \(settings.runs): \(total) frames at \(LiveResult.rate) frames/s with differencing + trajectory…")
            let measured = try Self.measure(frames: frames, width: width, height: height, total: total)
            log("  " + measured.summary)
            runs.append(measured)
        }
        let result = LiveResult(width: width, height: height, seconds: seconds, runs: runs, settings: settings)
        if !settings.jsonOnly {
            print(result.table())
            print("")
        }
        try printSummary([result], jsonOnly: settings.jsonOnly, nothingMeasured: "nothing was measured").require()
    }

    /// One recording of `total` paced frames, analyzed live: every frame's latency and analysis time.
    static func measure(frames: [[UInt8]], width: Int, height: Int, total: Int) throws -> LiveRun {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lumatrace-live-\(getpid())").path
        try? FileManager.default.removeItem(atPath: scratch)
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }

        let registry = AnalyzerRegistry([AnalyzerDescriptor(DifferencingAnalyzer.self), AnalyzerDescriptor(TrajectoryAnalyzer.self)])
        let setups = try ["differencing", "trajectory"].map { try AnalyzerSetup.resolve(registry.descriptor(named: $0), overrides: []) }
        let analysis = try LiveAnalysis(setups: setups, registry: registry, logPath: scratch + "/live.events.jsonl",
                                        recordingPath: scratch + "/live.luma", options: LiveAnalysis.Options())
        let arrivals = Arrivals(count: total)
        let measured = Mutex((latency: [UInt64](), analysis: [UInt64]()))
        analysis.frameLogged = { index, analysisTime in
            let now = DispatchTime.now().uptimeNanoseconds
            let arrived = arrivals.time(of: index)
            measured.withLock { m in
                m.latency.append(now - arrived)
                m.analysis.append(analysisTime)
            }
        }
        var source: any FrameSource = PacedSource(frames: frames, width: width, height: height, rate: LiveResult.rate, total: total, arrivals: arrivals)
        let (_, summary) = try Recorder.record(&source, to: scratch + "/live.luma", replacingExisting: false, inputs: [],
                                               options: .fixedDuration(1), stop: StopFlag(), analysis: analysis)
        let done = try analysis.recordingEnded(summary)
        let (latency, analysisTimes) = measured.withLock { ($0.latency.sorted(), $0.analysis.sorted()) }
        return LiveRun(received: total, recorded: summary.frameCount, analysis: done, latency: latency, analysisTime: analysisTimes)
    }
}

/// One run: every frame's latency from arrival to its events in the log, and the analyzers' time.
struct LiveRun {
    var received: Int
    var recorded: Int
    /// How the analysis while recording kept up: frames analyzed, its largest lag, frames read back.
    var analysis: LiveAnalysis.Summary
    /// Nanoseconds, sorted.
    var latency: [UInt64]
    var analysisTime: [UInt64]

    /// The `q` quantile of sorted nanoseconds, in milliseconds.
    static func ms(_ sorted: [UInt64], _ q: Double) -> Double {
        sorted.isEmpty ? .nan : Double(sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q))]) / 1e6
    }

    var medianLatency: Double { Self.ms(latency, 0.5) }
    var p99Latency: Double { Self.ms(latency, 0.99) }
    var maxLatency: Double { Self.ms(latency, 1) }
    var medianAnalysis: Double { Self.ms(analysisTime, 0.5) }

    var summary: String {
        "frames received \(received), recorded \(recorded), analyzed \(analysis.framesAnalyzed); "
            + "at most \(analysis.largestLag) behind, \(analysis.framesReadBack) read back; "
            + "latency median \(fixed(medianLatency, 2)) ms, p99 \(fixed(p99Latency, 2)) ms, max \(fixed(maxLatency, 2)) ms; "
            + "analyzers' median \(fixed(medianAnalysis, 2)) ms"
    }
}

/// The live benchmark's figures: medians over the runs of each run's median and p99 latency.
struct LiveResult {
    static let rate = 60
    static let inputName = "720p60"
    let width: Int
    let height: Int
    let seconds: Int
    let runs: [LiveRun]
    let settings: BenchSettings

    static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        return s.isEmpty ? .nan : s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    var interval: Double { 1000.0 / Double(Self.rate) }
    var medianLatency: Double { Self.median(runs.map(\.medianLatency)) }
    var p99Latency: Double { Self.median(runs.map(\.p99Latency)) }
    var medianAnalysis: Double { Self.median(runs.map(\.medianAnalysis)) }
    /// One frame interval plus the analyzers' own median time: what p99 may reach.
    var budget: Double { interval + medianAnalysis }
    /// Every frame of every run recorded and analyzed.
    var nothingDropped: Bool { runs.allSatisfy { $0.recorded == $0.received && $0.analysis.framesAnalyzed == $0.received } }
}

extension LiveResult: BenchResult {
    var name: String { Self.inputName }

    /// The figures `Benchmarks/targets.json` may judge.
    static let metricKeys = ["p99_vs_budget"]

    var metrics: [Metric] {
        [Metric(key: "p99_vs_budget", label: "p99 latency ÷ (frame interval + analyzers' median)", value: p99Latency / budget, unit: .fraction)]
    }

    var checks: [TargetCheck] { settings.targets.checks(metrics, input: name) }

    func table() -> String {
        var lines = ["analysis while recording, \(width)x\(height) at \(Self.rate) frames/s for \(seconds) s, differencing + trajectory, "
                     + "one core, median of \(settings.runs) run\(settings.runs == 1 ? "" : "s")"]
        lines += aligned([
            ["  latency, arrival → events in the log", "median \(fixed(medianLatency, 2)) ms", "p99 \(fixed(p99Latency, 2)) ms"],
            ["  analyzers' own time per frame", "median \(fixed(medianAnalysis, 2)) ms", ""],
            ["  budget: frame interval + analyzers' median", "\(fixed(interval, 2)) + \(fixed(medianAnalysis, 2))", "= \(fixed(budget, 2)) ms"],
        ], rightAligned: [1, 2])
        lines.append("  every frame recorded and analyzed: \(nothingDropped ? "yes" : "NO") "
                     + "(largest lag \(runs.map(\.analysis.largestLag).max() ?? 0) frames, \(runs.map(\.analysis.framesReadBack).reduce(0, +)) read back)")
        for check in checks {
            lines.append("  \(check.metric.label): \(check.metric.format(check.metric.value)), \(check.requirement) \(check.verdict)")
        }
        return lines.joined(separator: "\n")
    }

    func jsonLine() -> String {
        JSON.object(settings.jsonHeader(.live) + [
            ("input", .string(name)), ("width", .int(width)), ("height", .int(height)), ("rate", .int(Self.rate)), ("seconds", .int(seconds)),
            ("latency_median_ms", .number(medianLatency, 3)), ("latency_p99_ms", .number(p99Latency, 3)),
            ("analysis_median_ms", .number(medianAnalysis, 3)), ("budget_ms", .number(budget, 3)),
            ("largest_lag", .int(runs.map(\.analysis.largestLag).max() ?? 0)), ("read_back", .int(runs.map(\.analysis.framesReadBack).reduce(0, +))),
            ("nothing_dropped", .bool(nothingDropped)),
            ("runs_p99_ms", .array(runs.map { .number($0.p99Latency, 3) })),
        ] + checks.jsonFields).text
    }
}

/// When each frame arrived (monotonic nanoseconds), written by the source, read by the analysis.
final class Arrivals: Sendable {
    private let times: Mutex<[UInt64]>
    init(count: Int) { times = Mutex([UInt64](repeating: 0, count: count)) }
    func record(_ index: Int, at time: UInt64) { times.withLock { $0[index] = time } }
    func time(of index: Int) -> UInt64 { times.withLock { $0[index] } }
}

/// A camera: frame i is handed over at start + i / rate (monotonic clock), never earlier.
struct PacedSource: FrameSource {
    let frames: [[UInt8]]
    let width: Int
    let height: Int
    let rate: Int
    let total: Int
    let arrivals: Arrivals
    var index = 0
    var start: UInt64?

    var name: String { "paced synthetic 60 frames/s" }
    var header: RecordingHeader {
        RecordingHeader(width: width, height: height, timescale: Int64(rate), rateNumerator: rate, metadata: ["source": name])
    }
    var expectedFrameCount: Int? { total }

    mutating func nextFrame(into pixels: UnsafeMutableBufferPointer<UInt8>) throws -> Int64? {
        guard index < total else { return nil }
        let begin = start ?? DispatchTime.now().uptimeNanoseconds
        start = begin
        let due = begin + UInt64(index) * 1_000_000_000 / UInt64(rate)
        let now = DispatchTime.now().uptimeNanoseconds
        if due > now { Thread.sleep(forTimeInterval: Double(due - now) / 1e9) }
        _ = frames[index % frames.count].withUnsafeBufferPointer { pixels.initialize(from: $0) }
        // A camera's frame arrives when it is due, whether or not the recorder is ready for it
        // (a frame asked for late has been waiting in the pipe since then): its latency counts
        // from then, or from when it was handed over if that was later (a sleep overslept).
        arrivals.record(index, at: due > now ? DispatchTime.now().uptimeNanoseconds : due)
        defer { index += 1 }
        return Int64(index)
    }
}
