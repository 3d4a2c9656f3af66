import ExternalAnalyzer
import Foundation
import LumaAnalysis
import LumaBase
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
    static func run(settings: BenchSettings, scratch: String) -> Int32 {
        do {
            let path = scratch + "/external-720p.luma"
            let scene = try SyntheticScene(kind: .balls, settings: SceneSettings(width: 1280, height: 720, frameCount: 300, seed: 5))
            let writer = try RecordingWriter(path: path, header: RecordingHeader(width: 1280, height: 720, timescale: 30, rateNumerator: 30))
            for i in 0..<300 { try writer.append(scene.frame(i), ticks: Int64(i)) }
            try writer.close()
            let reader = try RecordingReader(path: path)
            let example = BenchSettings.packageRoot.appendingPathComponent("Plugins/BrightnessHistogram/brightness_histogram.py").path
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
            var rows: [(String, Double)] = []
            let registry = AnalyzerRegistry([AnalyzerDescriptor(ExternalAnalyzer.self), AnalyzerDescriptor(SwiftBrightnessHistogram.self)])
            func external(_ command: String) -> AnalyzerSetup {
                AnalyzerSetup(name: "external", version: ExternalAnalyzer.version, frameAnalysisSpacing: 0, regionOfInterest: .full,
                              configuration: .object(["command": .string(command), "options": .object(["every": .int(1), "bins": .int(16)]),
                                                      "timeout": .double(30)]))
            }
            let swift = AnalyzerSetup(name: "swift-histogram", version: "1", frameAnalysisSpacing: 0, regionOfInterest: .full,
                                      configuration: .object([]))
            for (name, setup) in [("Swift histogram (in process)", swift), ("Python histogram (numpy, external)", external("python3 \(example)")),
                                  ("Python, protocol only (external)", external("python3 \(null)"))] {
                var times: [Double] = []
                for _ in 0..<settings.runs {
                    let log = scratch + "/external.events.jsonl"
                    times.append(try Stopwatch.seconds {
                        _ = try Replay.run(reader, setups: [setup], registry: registry, options: ReplayOptions(jobs: 1), logPath: log)
                    })
                }
                rows.append((name, 300 / median(times)))
                log("  \(name): \(String(format: "%.1f", 300 / median(times))) frames/s")
            }
            print("external analyzer protocol, 1280x720, 300 frames, one thread, median of \(settings.runs) runs")
            for (name, fps) in rows {
                print("  " + name.padding(toLength: 40, withPad: " ", startingAt: 0) + String(format: "%8.1f frames/s  %5.2f× Swift", fps, fps / rows[0].1))
            }
            return 0
        } catch {
            log("lumatrace-bench external: error: \(error)")
            return 1
        }
    }
}

/// The brightness histogram of Plugins/BrightnessHistogram, in Swift: mean, standard deviation
/// and a 16-bin histogram of every frame.
struct SwiftBrightnessHistogram: Analyzer {
    struct Configuration: AnalyzerConfiguration { init() {} }
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
