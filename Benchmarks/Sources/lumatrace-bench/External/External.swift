import ExternalAnalyzer
import LumaAnalysis
import LumaBase
import Foundation
import LumaEngine
import LumaFormat
import LumaSynth

/// `lumatrace-bench external`: what the subprocess protocol costs. On a 720p synthetic recording
/// (300 frames), one thread, median of `--runs`:
/// - the Python brightness histogram (Plugins/BrightnessHistogram, numpy) through `external`,
///   an event every frame;
/// - a Python program that only answers `done` (the protocol's own cost: piping 921,600 bytes a
///   frame and one line back);
/// - the same histogram written in Swift, as an in-process analyzer (the baseline).
enum ExternalBench {
    /// The result's name: what an external target's `inputs` may list.
    static let inputName = "720p"
    static let width = 1280
    static let height = 720
    static let frameCount = 300

    /// The whole `external` benchmark: one table (unless `--json`), then one JSON line.
    static func run(settings: BenchSettings) throws {
        let rates = try Scratch.withFolder { scratch, _ in try measure(settings: settings, scratch: scratch) }
        let result = ExternalResult(rates: rates, settings: settings)
        if !settings.jsonOnly {
            print(result.table())
            print("")
        }
        try printSummary([result], jsonOnly: settings.jsonOnly, nothingMeasured: "nothing was measured").require()
    }

    /// Frames/s of each analyzer, in-process Swift first, at the median of `settings.runs` replays.
    static func measure(settings: BenchSettings, scratch: String) throws -> [(name: String, fps: Double)] {
        let path = scratch + "/external-720p.luma"
        let scene = try SyntheticScene(kind: .balls, settings: SceneSettings(width: width, height: height, frameCount: frameCount, seed: 5))
        let writer = try RecordingWriter(path: path, header: RecordingHeader(width: width, height: height, timescale: 30, rateNumerator: 30))
        for i in 0..<frameCount { try writer.append(scene.frame(i), ticks: Int64(i)) }
        try writer.close()
        let reader = try RecordingReader(path: path)
        let example = BenchSettings.packageRoot.appendingPathComponent("Plugins/BrightnessHistogram/brightness_histogram.py").path
        // The example is written with lumatrace.analyzer: it runs with the checkout's venv, which has the package.
        let python = BenchSettings.packageRoot.appendingPathComponent(".venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw InputError("\(python) is missing: run scripts/install-dependencies (it makes .venv with numpy and the lumatrace package)")
        }
        let null = scratch + "/null_analyzer.py"
        try """
            import sys
            stdin = sys.stdin.buffer
            stdin.readline()
            print('{"ready":true}', flush=True)
            while True:
                h = stdin.read(40)
                if h[:4] == b"LTEN":
                    print('{"done":"end"}', flush=True)
                    break
                w, hh = int.from_bytes(h[4:8], "little"), int.from_bytes(h[8:12], "little")
                stdin.read(w * hh)
                print('{"done":%d}' % int.from_bytes(h[16:24], "little", signed=True), flush=True)
            """.write(toFile: null, atomically: true, encoding: .utf8)
        let externalDescriptor = AnalyzerDescriptor(ExternalAnalyzer.self)
        let swiftDescriptor = AnalyzerDescriptor(SwiftBrightnessHistogram.self)
        let registry = AnalyzerRegistry([externalDescriptor, swiftDescriptor])
        // Options left out take their defaults (validate(with:) merges them), as in a replay.
        func external(_ command: String) throws -> AnalyzerSetup {
            var setup = AnalyzerSetup(name: "external", version: ExternalAnalyzer.version, frameAnalysisSpacing: 0, regionOfInterest: .full,
                                      configuration: .object(["command": .string(command), "options": .object(["every": .int(1), "bins": .int(16)]),
                                                              "timeout": .double(30)]))
            try setup.validate(with: externalDescriptor)
            return setup
        }
        var swift = AnalyzerSetup(name: "swift-histogram", version: "1", frameAnalysisSpacing: 0, regionOfInterest: .full,
                                  configuration: .object([]))
        try swift.validate(with: swiftDescriptor)
        var rates: [(name: String, fps: Double)] = []
        for (name, setup) in [(ExternalResult.swift, swift), (ExternalResult.python, try external("\(python) \(example)")),
                              (ExternalResult.protocolOnly, try external("python3 \(null)"))] {
            var times: [Double] = []
            for run in 1...settings.runs {
                log("\(name): run \(run) of \(settings.runs)")
                let events = scratch + "/external.events.jsonl"
                try? FileManager.default.removeItem(atPath: events)  // a replay never overwrites a log
                times.append(try Stopwatch.seconds {
                    _ = try Replay.run(reader, setups: [setup], registry: registry, options: ReplayOptions(jobs: 1), logPath: events)
                })
            }
            rates.append((name, Double(frameCount) / median(times)))
            log("  \(name): \(fixed(Double(frameCount) / median(times), 1)) frames/s")
        }
        return rates
    }
}

/// Frames/s of every analyzer the `external` benchmark replays, and each ÷ the in-process Swift one.
struct ExternalResult {
    static let swift = "Swift histogram (in process)"
    static let python = "Python histogram (numpy, external)"
    static let protocolOnly = "Python, protocol only (external)"

    /// In-process Swift first: the baseline of every ratio.
    let rates: [(name: String, fps: Double)]
    let settings: BenchSettings

    func fps(_ name: String) -> Double { rates.first { $0.name == name }?.fps ?? .nan }
}

extension ExternalResult: BenchResult {
    var name: String { ExternalBench.inputName }

    /// The figures `Benchmarks/targets.json` may judge.
    static let metricKeys = ["protocol_vs_swift", "python_vs_swift"]

    var metrics: [Metric] {
        [
            Metric(key: "protocol_vs_swift", label: "protocol only ÷ Swift in process", value: fps(Self.protocolOnly) / fps(Self.swift), unit: .times),
            Metric(key: "python_vs_swift", label: "Python histogram ÷ Swift in process", value: fps(Self.python) / fps(Self.swift), unit: .times),
        ]
    }

    var checks: [TargetCheck] { settings.targets.checks(metrics, input: name) }

    func table() -> String {
        var lines = ["external analyzer protocol, \(ExternalBench.width)x\(ExternalBench.height), \(ExternalBench.frameCount) frames, "
                     + "one thread, median of \(settings.runs) run\(settings.runs == 1 ? "" : "s")"]
        let rows = rates.map { ["  " + $0.name, fixed($0.fps, 1) + " frames/s", fixed($0.fps / fps(Self.swift), 2) + "× Swift"] }
        lines += aligned(rows, rightAligned: [1, 2])
        for check in checks {
            lines.append("  \(check.metric.label): \(check.metric.format(check.metric.value)), \(check.requirement) \(check.verdict)")
        }
        return lines.joined(separator: "\n")
    }

    func jsonLine() -> String {
        let baseline = fps(Self.swift)
        return JSON.object(settings.jsonHeader(.external) + [
            ("input", .string(name)), ("width", .int(ExternalBench.width)), ("height", .int(ExternalBench.height)),
            ("frames", .int(ExternalBench.frameCount)),
            ("analyzers", .array(rates.map { .object([("name", .string($0.name)), ("fps", .number($0.fps, 2)),
                                                      ("vs_swift", .number($0.fps / baseline, 4))]) })),
        ] + checks.jsonFields).text
    }
}

/// The brightness histogram of Plugins/BrightnessHistogram, in Swift: mean, standard deviation
/// and a 16-bin histogram of every frame.
struct SwiftBrightnessHistogram: Analyzer {
    struct Configuration: AnalyzerConfiguration {
        init() {}
        static let options: [AnalyzerOption<Self>] = []
    }
    static let name = "swift-histogram"
    static let version = "1"

    init(configuration: Configuration, context: AnalyzerContext) throws {}

    mutating func analyze(_ frame: Frame, into events: inout EventSink) throws {
        var counts = [Int](repeating: 0, count: 16)
        var sum = 0, squares = 0
        counts.withUnsafeMutableBufferPointer { bins in
            for v in frame.pixels {
                let x = Int(v)
                bins[x >> 4] += 1
                sum += x
                squares += x * x
            }
        }
        let n = Double(frame.pixels.count), mean = Double(sum) / n
        events.emit("brightness", json: .object([
            "mean": .double(mean), "std": .double((Double(squares) / n - mean * mean).squareRoot()),
            "histogram": .array(counts.map { .double(Double($0) / n) }),
        ]))
    }
}
