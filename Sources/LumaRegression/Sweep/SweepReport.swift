import LumaAnalysis
import LumaBase
import LumaEngine

/// A sweep's result as people and programs read it: a text table (`sweep.txt`), JSON
/// (`sweep.json`) and CSV (`sweep.csv`), every number in fixed decimals, rows in grid order.
public struct SweepReport: Sendable {
    public var result: SweepResult
    /// What the best setting is chosen by; `nil` for an analyzer whose events are only counted.
    public var measure: SweepResult.Measure?

    public init(_ result: SweepResult, best measure: SweepResult.Measure?) {
        self.result = result
        self.measure = measure
    }

    /// The file names a sweep writes into its output folder.
    public static let fileNames = ["sweep.txt", "sweep.json", "sweep.csv"]

    private var hasTrajectories: Bool { result.pooled.contains { $0.trajectories != nil } }
    private var hasTracking: Bool { result.pooled.contains { $0.tracking != nil } }

    // MARK: - Text

    /// The best setting in a line, with the `replay` flags that reproduce it; or why there is none.
    public var bestLine: String {
        guard let measure else {
            return "best: none (the \(result.grid.analyzer) analyzer's events are only counted, not scored against truth)"
        }
        guard let best = result.best(by: measure) else {
            return "best by \(measure.rawValue): none (the truth has no \(measure.family.truth) to measure it by)"
        }
        let setting = result.settings[best]
        let value = measure.of(result.pooled[best]).map { DecimalText.fixed($0, 3) } ?? "-"
        return "best by \(measure.rawValue): \(setting.id) (\(measure.rawValue) \(value) pooled): lumatrace replay RECORDING "
            + result.grid.replayFlags(setting).map(ShellWord.quoted).joined(separator: " ")
    }

    /// `sweep.txt`: what was swept over what, the pooled table, the best, then a table per recording.
    public var text: String {
        let r = result
        var lines = [
            "sweep of \(r.grid.name == r.grid.analyzer ? r.grid.analyzer : "\(r.grid.name)=\(r.grid.analyzer)"): \(Plural.count(r.settings.count, "setting")) "
                + "over \(Plural.count(r.recordings.count, "recording")) (\(r.recordings.joined(separator: ", ")))",
        ]
        if let sampling = r.grid.sampling { lines.append("drawn at random: --random \(sampling.count) --seed \(sampling.seed)") }
        if !r.fixed.isEmpty { lines.append("fixed: " + r.fixed.joined(separator: " ")) }
        if !r.withoutTruth.isEmpty { lines.append("left out (no truth beside them): " + r.withoutTruth.joined(separator: ", ")) }
        lines += ["", "pooled over the corpus (counts summed, then ratios):"]
        lines += table(r.pooled, times: r.pooledTimings, front: r.front, timeFront: r.timeFront)
        if r.front != nil { lines.append("  * the front: no other setting is as good in recall and precision and better in one (as printed)") }
        if r.timeFront != nil {
            lines.append("  * the time front: no other setting is as good in F1 and ms/frame and better in one (as printed; times differ run to run)")
        }
        lines += ["", bestLine]
        for (i, name) in r.recordings.enumerated() {
            lines += ["", name + ":"]
            lines += table(r.scores.map { $0[i] }, times: r.timings?.map { $0[i] }, front: nil)
        }
        // Names come from files: a control character in one is written visibly (`\u{1B}`), as printed.
        return lines.map { ControlCharacters.escaped($0) }.joined(separator: "\n") + "\n"
    }

    /// A table of `scores` (and `times`, with `--timings`), one row per setting; a `front` column
    /// marking the front's settings with `*` when given, and a `time front` column likewise.
    private func table(_ scores: [SweepScore], times: [InstanceClock.Reading]?, front: [Bool]?, timeFront: [Bool]? = nil) -> [String] {
        var rows = [["setting"] + result.grid.axes.map(\.key) + metricNames.text + (front == nil ? [] : ["front"])
            + (timeFront == nil ? [] : ["time front"])]
        for (s, (setting, score)) in zip(result.settings, scores).enumerated() {
            rows.append([setting.id] + setting.values.map(\.value) + metrics(score, time: times?[s], decimals: 3).map { $0 ?? "-" }
                + (front.map { [$0[s] ? "*" : ""] } ?? []) + (timeFront.map { [$0[s] ? "*" : ""] } ?? []))
        }
        return alignedRows(rows, rightAligned: Set(1..<rows[0].count), indent: "  ")
    }

    // MARK: - Metrics, shared by every format

    private var metricNames: (text: [String], csv: [String]) {
        var text: [String] = [], csv: [String] = []
        if hasTrajectories {
            text += ["recall", "precision", "F1", "error median px"]
            csv += ["recall", "precision", "f1", "median_error_px"]
        }
        if hasTracking {
            text += ["success AUC", "P@20px", "lost"]
            csv += ["success_auc", "precision20", "losses"]
        }
        let time = result.timings == nil ? [] : ["ms/frame"]
        return (text + ["events"] + time, csv + ["events"] + (time.isEmpty ? [] : ["ms_per_frame"]))
    }

    /// The metric cells of a score (and its time, with `--timings`) in `metricNames` order; `nil`
    /// where the score has no such measure.
    private func metrics(_ score: SweepScore, time: InstanceClock.Reading?, decimals: Int) -> [String?] {
        var cells: [String?] = []
        let fixed = { (value: Double) in DecimalText.fixed(value, decimals) }
        if hasTrajectories {
            let t = score.trajectories
            cells += [t.map { fixed($0.recall) }, t.map { fixed($0.precision) }, t.map { fixed($0.f1) },
                      t.flatMap { $0.pointErrors.isEmpty ? nil : DecimalText.fixed($0.medianError, min(decimals, 2)) }]
        }
        if hasTracking {
            let k = score.tracking
            cells += [k.map { fixed($0.successAUC) }, k.map { fixed($0.precision20) }, k.map { "\($0.losses)" }]
        }
        return cells + ["\(score.events)"] + (result.timings == nil ? [] : [time.map { fixed($0.millisecondsPerFrame) }])
    }

    // MARK: - CSV

    /// `sweep.csv`: one row per setting pooled (recording `*`), then per setting and recording. With
    /// trajectories, a last column `front`: 1 or 0 on pooled rows (the Pareto front), empty on the
    /// others; with `--timings`, `ms_per_frame` and then `time_front` likewise.
    public var csv: String {
        let (front, timeFront, pooledTimes) = (result.front, result.timeFront, result.pooledTimings)
        let header = ["setting", "recording"] + result.grid.axes.map(\.key) + metricNames.csv + (front == nil ? [] : ["front"])
            + (timeFront == nil ? [] : ["time_front"])
        var lines = [header.map(csvField).joined(separator: ",")]
        let rows = result.settings.indices.map { ("*", result.pooled[$0], pooledTimes?[$0], $0) }
            + result.settings.indices.flatMap { s in
                result.recordings.indices.map { (result.recordings[$0], result.scores[s][$0], result.timings?[s][$0], s) }
            }
        for (recording, score, time, s) in rows {
            let cells = [result.settings[s].id, recording] + result.settings[s].values.map(\.value)
                + metrics(score, time: time, decimals: JSONValue.decimals).map { $0 ?? "" }
                + (front.map { [recording == "*" ? ($0[s] ? "1" : "0") : ""] } ?? [])
                + (timeFront.map { [recording == "*" ? ($0[s] ? "1" : "0") : ""] } ?? [])
            lines.append(cells.map(csvField).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A CSV field, quoted when it holds a comma or a quote (RFC 4180); control characters, line
    /// breaks included, written visibly (`\u{1B}`, `\n`, as printed), so every row is one line.
    private func csvField(_ text: String) -> String {
        let text = ControlCharacters.escaped(text)
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    // MARK: - JSON

    /// `sweep.json`: the grid, the corpus, each setting's flags, pooled score and score per recording, and the best.
    public var json: JSONValue {
        let r = result
        let best = measure.flatMap(r.best(by:))
        let front = r.front
        let (timeFront, pooledTimes) = (r.timeFront, r.pooledTimings)
        let settings = r.settings.indices.map { s in settingJSON(s, front: front, timeFront: timeFront, pooledTimes: pooledTimes) }
        var members: [JSONValue.Member] = [
            .init("analyzer", .string(r.grid.analyzer)),
            .init("instance", .string(r.grid.name)),
            .init("fixed", .array(r.fixed.map(JSONValue.string))),
            .init("grid", .array(r.grid.axes.map { .object([.init("key", .string($0.key)), .init("values", .array($0.values.map(JSONValue.string)))]) })),
        ]
        if let sampling = r.grid.sampling {
            members.append(.init("random", .object([.init("count", .int(Int64(sampling.count))), .init("seed", .string(String(sampling.seed)))])))
        }
        members += [
            .init("order", .string(r.grid.sampling == nil ? "the first grid option changes slowest" : "in the order drawn")),
            .init("recordings", .array(r.recordings.map(JSONValue.string))),
            .init("withoutTruth", .array(r.withoutTruth.map(JSONValue.string))),
            .init("pooling", .string("counts summed over the recordings, then ratios; median error over every correct trajectory's points; tracking weighted by truth frames")),
            .init("best", .object([.init("by", measure.map { .string($0.rawValue) } ?? .null), .init("setting", best.map { .string(r.settings[$0].id) } ?? .null)])),
            .init("front", .object([
                .init("of", .string("pooled recall and precision, compared as printed: settings no other setting beats in both")),
                .init("settings", .array(r.settings.indices.filter { front?[$0] == true }.map { .string(r.settings[$0].id) })),
            ])),
        ]
        if r.timings != nil {
            members += [
                .init("timings", .string("each setting's own analysis time per analyzed frame, wall clock: differs from run to run")),
                .init("timeFront", .object([
                    .init("of", .string("pooled F1 and milliseconds per frame, compared as printed: settings no other setting beats in both")),
                    .init("settings", .array(r.settings.indices.filter { timeFront?[$0] == true }.map { .string(r.settings[$0].id) })),
                ])),
            ]
        }
        members.append(.init("settings", .array(settings)))
        return .object(members)
    }

    /// Setting `s`'s JSON: its values, flags, front marks, pooled score and score per recording.
    private func settingJSON(_ s: Int, front: [Bool]?, timeFront: [Bool]?, pooledTimes: [InstanceClock.Reading]?) -> JSONValue {
        let r = result
        var members: [JSONValue.Member] = [
            .init("id", .string(r.settings[s].id)),
            .init("values", .object(r.settings[s].values.map { .init($0.key, .string($0.value)) })),
            .init("replayFlags", .array(r.grid.replayFlags(r.settings[s]).map(JSONValue.string))),
            .init("front", front.map { .bool($0[s]) } ?? .null),
        ]
        if r.timings != nil { members.append(.init("timeFront", timeFront.map { .bool($0[s]) } ?? .null)) }
        let recordings: [JSONValue] = r.recordings.indices.map { i in
            let score = Self.json(r.scores[s][i], time: r.timings?[s][i]).objectValue ?? []
            return .object([.init("recording", .string(r.recordings[i]))] + score)
        }
        members += [.init("pooled", Self.json(r.pooled[s], time: pooledTimes?[s])), .init("recordings", .array(recordings))]
        return .object(members)
    }

    /// A score's JSON: its counts and ratios (point errors as their median only), and its time with `--timings`.
    static func json(_ score: SweepScore, time: InstanceClock.Reading? = nil) -> JSONValue {
        var members: [JSONValue.Member] = [.init("events", .int(Int64(score.events)))]
        if let time {
            members.append(.init("time", .object([
                .init("seconds", .double(time.seconds)), .init("frames", .int(Int64(time.frames))),
                .init("millisecondsPerFrame", .double(time.millisecondsPerFrame)),
            ])))
        }
        if let t = score.trajectories {
            members.append(.init("trajectories", .object([
                .init("segments", .int(Int64(t.segments))), .init("found", .int(Int64(t.found))),
                .init("reported", .int(Int64(t.reported))), .init("correct", .int(Int64(t.correct))),
                .init("recall", .double(t.recall)), .init("precision", .double(t.precision)), .init("f1", .double(t.f1)),
                .init("medianErrorPixels", .double(t.medianError)), .init("pointErrors", .int(Int64(t.pointErrors.count))),
            ])))
        }
        if let k = score.tracking {
            members.append(.init("tracking", .object([
                .init("frames", .int(Int64(k.frames))), .init("successAUC", .double(k.successAUC)),
                .init("precision20", .double(k.precision20)), .init("losses", .int(Int64(k.losses))),
            ])))
        }
        return .object(members)
    }
}

extension SweepResult {
    /// The fixed settings as `--set` flags' values (`NAME.KEY=VALUE`).
    var fixed: [String] { grid.fixed.map { "\(grid.name).\($0.key)=\($0.value)" } }
}
