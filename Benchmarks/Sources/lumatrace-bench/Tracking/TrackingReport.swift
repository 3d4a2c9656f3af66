import Foundation

/// Every tracker's score on one sequence, or their means over every sequence (`average`).
struct TrackingResult {
    /// The sequence's name (`otb-crossing`, `synth-3`), or `average`.
    let name: String
    /// Real video with hand-made labels (a `synth tracking` scene and the average are not).
    let isReal: Bool
    /// The sequence's frame size; the average has none.
    let size: (width: Int, height: Int)?
    /// Frames scored (over every sequence, for the average).
    let frameCount: Int
    /// For the average, how many sequences it is over (1 for a sequence).
    let sequenceCount: Int
    /// Lumatrace's levels, then OpenCV's trackers, in `TrackingBench.peerTrackers` order.
    let scores: [TrackerScore]
    let settings: BenchSettings

    init(sequence s: TrackingSequence, scores: [TrackerScore], settings: BenchSettings) {
        name = s.name
        isReal = s.isReal
        size = (s.width, s.height)
        (frameCount, sequenceCount) = (s.frameCount, 1)
        self.scores = scores
        self.settings = settings
    }

    /// Each tracker's mean AUC, precision and frames/s over `results` (over the sequences it ran on).
    init(averaging results: [TrackingResult], settings: BenchSettings) {
        name = TrackingBench.averageName
        isReal = false
        size = nil
        (frameCount, sequenceCount) = (results.reduce(0) { $0 + $1.frameCount }, results.count)
        self.settings = settings
        let methods = results.first?.scores.map(\.method) ?? []
        scores = methods.map { method in
            let all = results.compactMap { $0.score(method) }
            func mean(_ key: KeyPath<TrackerScore, Double>) -> Double { all.map { $0[keyPath: key] }.reduce(0, +) / Double(max(all.count, 1)) }
            let lumatrace = all.first?.tracker.hasPrefix("Lumatrace") ?? false
            return TrackerScore(tracker: (lumatrace ? "Lumatrace " : "OpenCV ") + method, auc: mean(\.auc), precision20: mean(\.precision20),
                                framesPerSecond: mean(\.framesPerSecond), losses: all.reduce(0) { $0 + $1.losses })
        }
    }

    /// The score of the tracker with this short name ("fast", "CSRT"), if it ran.
    func score(_ method: String) -> TrackerScore? { scores.first { $0.method == method } }
}

extension TrackingResult: BenchResult {
    /// The figures `Benchmarks/targets.json` may judge, in the order the report shows them: each
    /// a Lumatrace level's figure ÷ an OpenCV tracker's on the same frames.
    static let metricKeys = ["accurate_auc_vs_csrt", "fast_auc_vs_mil", "accurate_fps_vs_csrt", "fast_fps_vs_kcf"]

    /// This result's figures under those keys; none for a tracker that did not run (`--only-lumatrace`).
    var metrics: [Metric] {
        func ratio(_ key: String, _ ours: String, _ peer: String, _ figure: KeyPath<TrackerScore, Double>, _ what: String,
                   _ decimals: Int) -> Metric? {
            guard let a = score(ours), let b = score(peer) else { return nil }
            let (x, y) = (a[keyPath: figure], b[keyPath: figure])
            return Metric(key: key, label: "\(ours) \(what) ÷ \(peer)'s (\(fixed(x, decimals)) vs \(fixed(y, decimals)))",
                          value: x / y, unit: .times)
        }
        return [
            ratio("accurate_auc_vs_csrt", "accurate", "CSRT", \.auc, "AUC", 3),
            ratio("fast_auc_vs_mil", "fast", "MIL", \.auc, "AUC", 3),
            ratio("accurate_fps_vs_csrt", "accurate", "CSRT", \.framesPerSecond, "frames/s", 0),
            ratio("fast_fps_vs_kcf", "fast", "KCF", \.framesPerSecond, "frames/s", 0),
        ].compactMap { $0 }
    }

    var checks: [TargetCheck] { settings.targets.checks(metrics, input: name) }

    /// AUC, precision at 20 px, frames/s and losses per tracker (the average has no losses column).
    func table() -> String {
        let average = name == TrackingBench.averageName
        let title = average ? "average over \(sequenceCount) sequences" : name
        let rows = [["  \(title)", "AUC", "P@20px", "frames/s"] + (average ? [] : ["lost"])]
            + scores.map { s in
                ["  " + (average ? s.method : s.tracker), fixed(s.auc, 3), fixed(s.precision20, 3), fixed(s.framesPerSecond, 1)]
                    + (average ? [] : ["\(s.losses)"])
            }
        return aligned(rows, rightAligned: [1, 2, 3, 4]).joined(separator: "\n")
    }

    /// The checks that judge `results`, one line each with PASS or FAIL.
    static func targetLines(_ results: [TrackingResult]) -> String {
        let lines = results.flatMap { result in
            result.checks.filter(\.applies).map { check in
                "    \(check.pass ? "PASS" : "FAIL")  \(check.metric.label) on \(result.name): "
                    + "\(check.metric.format(check.metric.value)), \(check.requirement)"
            }
        }
        return lines.isEmpty ? "" : "\n  targets (Benchmarks/targets.json):\n" + lines.joined(separator: "\n")
    }

    /// One line of JSON: the sequence (or the average) and every tracker's figures and target verdicts.
    func jsonLine() -> String {
        var fields = settings.jsonHeader(.tracking) + [("input", .string(name))]
        if let size {
            fields += [("real", .bool(isReal)), ("width", .int(size.width)), ("height", .int(size.height))]
        } else {
            fields.append(("sequences", .int(sequenceCount)))
        }
        fields.append(("frames", .int(frameCount)))
        fields.append(("scores", .array(scores.map { s in
            .object([("tracker", .string(s.tracker)), ("method", .string(s.method)), ("auc", .number(s.auc, 4)),
                     ("precision20", .number(s.precision20, 4)), ("fps", .number(s.framesPerSecond, 2)), ("lost", .int(s.losses))])
        })))
        return JSON.object(fields + checks.jsonFields).text
    }
}
