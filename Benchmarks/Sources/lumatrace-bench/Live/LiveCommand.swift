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
            runs it pinned to one core (taskset -c 0), recorder and analysis sharing it.

            Example:
              Benchmarks/run live --seconds 20
            """)

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
        let dims = size.split(separator: "x").compactMap { Int($0) }
        let (width, height) = (dims[0], dims[1])
        let rate = 60
        let total = seconds * rate
        // Frames are drawn before the clock starts (drawing is not the camera's cost); a pool of
        // up to 5 s of the scene is played in a loop.
        let pool = min(total, 5 * rate)
        let scene = try SyntheticScene(kind: .balls, settings: SceneSettings(width: width, height: height, frameCount: pool, seed: 7))
        print("drawing \(pool) frames of \(width)x\(height)…")
        let frames = (0..<pool).map { scene.frame($0) }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lumatrace-live-\(getpid())").path
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
        var source: any FrameSource = PacedSource(frames: frames, width: width, height: height, rate: rate, total: total, arrivals: arrivals)
        print("recording \(total) frames at \(rate) frames/s with differencing + trajectory…")
        let (_, summary) = try Recorder.record(&source, to: scratch + "/live.luma", replacingExisting: false, inputs: [],
                                               options: .fixedDuration(1), stop: StopFlag(), analysis: analysis)
        let done = try analysis.recordingEnded(summary)
        let (latency, analysisTimes) = measured.withLock { ($0.latency.sorted(), $0.analysis.sorted()) }
        func ms(_ sorted: [UInt64], _ q: Double) -> Double {
            sorted.isEmpty ? .nan : Double(sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q))]) / 1e6
        }
        let interval = 1000.0 / Double(rate)
        let target = interval + ms(analysisTimes, 0.5)
        let p99 = ms(latency, 0.99)
        print("")
        print("frames received \(total), recorded \(summary.frameCount), analyzed \(done.framesAnalyzed); analysis at most \(done.largestLag) frames behind, recorder waited \(done.waits) times")
        print(String(format: "latency, arrival → events in the log: median %.2f ms, p99 %.2f ms, max %.2f ms", ms(latency, 0.5), p99, ms(latency, 1)))
        print(String(format: "analyzers' own time per frame:       median %.2f ms, p99 %.2f ms", ms(analysisTimes, 0.5), ms(analysisTimes, 0.99)))
        print(String(format: "target p99 ≤ frame interval %.1f ms + analyzers' median %.2f ms = %.2f ms: %@", interval, ms(analysisTimes, 0.5), target,
                     p99 <= target ? "PASS" : "FAIL"))
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
    var timescale: Int64 { Int64(rate) }
    var rateNumerator: Int { rate }
    var rateDenominator: Int { 1 }
    var metadata: [String: String] { ["source": name] }
    var expectedFrameCount: Int? { total }

    mutating func nextFrame(into pixels: UnsafeMutableBufferPointer<UInt8>) throws -> Int64? {
        guard index < total else { return nil }
        let begin = start ?? DispatchTime.now().uptimeNanoseconds
        start = begin
        let due = begin + UInt64(index) * 1_000_000_000 / UInt64(rate)
        let now = DispatchTime.now().uptimeNanoseconds
        if due > now { Thread.sleep(forTimeInterval: Double(due - now) / 1e9) }
        _ = frames[index % frames.count].withUnsafeBufferPointer { pixels.initialize(from: $0) }
        arrivals.record(index, at: DispatchTime.now().uptimeNanoseconds)
        defer { index += 1 }
        return Int64(index)
    }
}
