import Foundation
import LumaAnalysis
import LumaBase

/// A regress run as a JUnit XML report, the format CI systems (GitHub Actions, GitLab, Jenkins)
/// read test results from: one test case per golden log.
///
/// Built from ``RegressionOutcome``s alone, so one machine's run and a merge of shards' parts give
/// the same bytes, as their text reports do. It holds no clock time, host name or path other than
/// the corpus folder as given: the same run gives the same report.
///
/// - A golden that passes is a test case with nothing in it but its properties (and, when regress
///   printed lines for it, such as differences within the tolerances, those in `<system-out>`).
/// - One that fails (it changed, or a score dropped beyond its tolerance, or `--update` kept it) has
///   a `<failure>`: its message is one line (the result and the scores that got worse), its text
///   what regress prints for it (its row of the table, then its differences).
/// - One that could not be run (its recording missing or not the one it was made from) has an
///   `<error>` with the reason.
///
/// Regress skips no golden, so `skipped` is always 0. Each test case's properties are the event
/// counts and every watched score (``ScoreMetric``, named as `--tolerance` names it) of the golden
/// and the new log, as the JSON report writes them; its `classname` is the corpus folder's name
/// (then the recording's folder inside it, if any), its `file` the golden log's path. The suite's
/// properties are the corpus folder and each `--set` of the run, in the order given.
///
/// A timed run (``RegressionOutcome/seconds`` kept, `--junit-timings`) adds a `time` attribute to
/// each test case and to the suite and root (the sum of its cases' times, which exceeds the run's
/// wall-clock time when goldens ran in parallel): such a report differs from run to run.
public enum JUnitReport {
    /// The suite's name.
    public static let suiteName = "lumatrace regress"

    /// The report of `outcomes` for the corpus `folder` (as given on the command line), whose
    /// absolute path is `corpusPath`, run with the `--set` values `settings`.
    public static func xml(folder: String, corpusPath: String, settings: [String] = [], _ outcomes: [RegressionOutcome]) -> String {
        let errors = outcomes.filter(\.failed).count
        let failures = outcomes.filter { !$0.passed && !$0.failed }.count
        var counts = "tests=\"\(outcomes.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\""
        let times = outcomes.compactMap(\.seconds)
        if !times.isEmpty { counts += " time=\(quoted(seconds(times.reduce(0, +))))" }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\(quoted(suiteName)) \(counts)>\n"
        out += "  <testsuite name=\(quoted(suiteName)) \(counts)>\n"
        out += "    <properties>\n"
        out += "      <property name=\"folder\" value=\(quoted(folder))/>\n"
        for setting in settings { out += "      <property name=\"set\" value=\(quoted(setting))/>\n" }
        out += "    </properties>\n"
        let corpusName = URL(fileURLWithPath: corpusPath).standardizedFileURL.lastPathComponent
        for outcome in outcomes { testCase(outcome, folder: folder, corpusName: corpusName, into: &out) }
        out += "  </testsuite>\n"
        out += "</testsuites>\n"
        return out
    }

    /// A test case's class name: the corpus folder's own name, then the folder of the golden's
    /// recording inside it (`Recordings`, `corpus/phone`), so CI groups cases by where they live.
    static func className(corpusName: String, _ o: RegressionOutcome) -> String {
        o.recordingFolder.isEmpty ? corpusName : corpusName + "/" + o.recordingFolder
    }

    /// A time in seconds as JUnit writes it: fixed, three decimals.
    static func seconds(_ value: Double) -> String {
        FixedDecimal.text(value, decimals: 3, below: 1e12) ?? "0.000"
    }

    // MARK: - One golden

    private static func testCase(_ o: RegressionOutcome, folder: String, corpusName: String, into out: inout String) {
        // The golden's path as the corpus folder was given: `Recordings/toss-real.events.jsonl`.
        let file = folder.isEmpty ? o.name : folder.hasSuffix("/") ? folder + o.name : folder + "/" + o.name
        var attributes = "classname=\(quoted(className(corpusName: corpusName, o))) name=\(quoted(o.name)) file=\(quoted(file))"
        if let seconds = o.seconds { attributes += " time=\(quoted(Self.seconds(seconds)))" }
        out += "    <testcase \(attributes)>\n"
        let properties = properties(of: o)
        if !properties.isEmpty {
            out += "      <properties>\n"
            for (name, value) in properties { out += "        <property name=\(quoted(name)) value=\(quoted(value))/>\n" }
            out += "      </properties>\n"
        }
        let details = Array(o.details.drop { $0.isEmpty })
        if o.failed {
            let reason = o.json["error"]?.stringValue ?? "could not be run"
            element("error", message: reason, type: nil, text: text(of: o, details: details), into: &out)
        } else if !o.passed {
            element("failure", message: failureMessage(o), type: "regression", text: text(of: o, details: details), into: &out)
        } else if !details.isEmpty {
            out += "      <system-out>" + XMLText.escaped(SystemPath.display(details.joined(separator: "\n"))) + "</system-out>\n"
        }
        out += "    </testcase>\n"
    }

    private static func element(_ name: String, message: String, type: String?, text: String, into out: inout String) {
        let oneLine = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        out += "      <\(name) message=\(quoted(oneLine))" + (type.map { " type=\(quoted($0))" } ?? "") + ">" + XMLText.escaped(SystemPath.display(text)) + "</\(name)>\n"
    }

    /// The result column, with the scores that got worse (regress's `worse:` lines) in place of
    /// its bare `; worse`: `10 differences: 2 lost, 8 changed; worse: trajectory F1 0.952 → 0.842 (tolerance 0.010)`.
    static func failureMessage(_ o: RegressionOutcome) -> String {
        var message = o.row.count > 2 ? o.row[2] : ""
        let worse = o.details.filter { $0.hasPrefix("  worse: ") }.map { String($0.dropFirst(9)) }
        if !worse.isEmpty {
            if message.hasSuffix("; worse") { message.removeLast("; worse".count) }
            message += (message.isEmpty ? "" : "; ") + "worse: " + worse.joined(separator: "; ")
        }
        if o.keptWorse { message += (message.isEmpty ? "" : "; ") + "not updated: the new log scores worse" }
        return message.isEmpty ? "failed" : message
    }

    /// What regress prints for the golden: its row of the table, one `heading: cell` line per
    /// filled cell, then the lines after the table.
    private static func text(of o: RegressionOutcome, details: [String]) -> String {
        let cells = zip(RegressionOutcome.columns, o.row).dropFirst().filter { !$0.1.isEmpty }.map { "\($0.0): \($0.1)" }
        return (cells + (details.isEmpty ? [] : [""] + details)).joined(separator: "\n")
    }

    /// Event counts and scores of the golden and the new log, numbers as the JSON report writes
    /// them (so a merged run's report, read back from part files, is the same).
    static func properties(of o: RegressionOutcome) -> [(String, String)] {
        var out: [(String, String)] = []
        if let counts = o.json["events"]?.arrayValue, counts.count == 2 {
            out += [("events.golden", counts[0].serialized), ("events.new", counts[1].serialized)]
        }
        for metric in ScoreMetric.allCases {
            for (side, key) in [("golden", "goldenScore"), ("new", "newScore")] {
                if let value = o.json[key].flatMap(metric.value(inJSON:)) { out.append(("\(metric.rawValue).\(side)", value.serialized)) }
            }
        }
        if o.updated { out.append(("updated", "true")) }
        return out
    }

    /// A value as an attribute; a file name that is not UTF-8 shows its bytes as `\xNN`, as the
    /// table shows it (``SystemPath/display(_:)``).
    private static func quoted(_ value: String) -> String { "\"" + XMLText.escaped(SystemPath.display(value), inAttribute: true) + "\"" }
}

extension ScoreMetric {
    /// Its value in a score's JSON (``LogScore/json``, as a part file carries it): what
    /// ``value(in:)`` reads from the score itself.
    func value(inJSON score: JSONValue) -> JSONValue? {
        switch self {
        case .recall: return score["trajectories"]?["recall"]
        case .precision: return score["trajectories"]?["precision"]
        case .f1: return score["trajectories"]?["f1"]
        case .pointError:
            guard let t = score["trajectories"], (t["correct"]?.intValue ?? 0) > 0 else { return nil }
            return t["medianErrorPixels"]
        case .auc: return score["tracking"]?["successAUC"]
        case .p20: return score["tracking"]?["precision20"]
        }
    }
}
