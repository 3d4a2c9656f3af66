import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import LumaTestSupport

/// `regress --junit FILE`: the run as JUnit XML, for CI systems to show as test results.
@Suite("regress --junit: a JUnit XML report")
struct RegressJUnitTests {
    static let recordings = PackageLayout.root.appendingPathComponent("Recordings")
    /// Changes the trajectory analyzer so that balls-synth's F1 drops and toss-real's log changes.
    static let longerTrajectories = ["--set", "trajectory.trajectoryLength=15"]

    @Test("over the bundled recordings every golden is a passing test case, counted in the suite")
    func passingRun() throws {
        try withCopyOfRecordings { folder in
            let report = folder + "/regress.xml"
            let r = try CLI.run(["regress", folder, "--junit", report])
            #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
            // The table is printed as without --junit.
            #expect(r.stdout.contains("unchanged, 0 changed"))

            let junit = try JUnitFile(path: report)
            let goldens = try goldenNames(in: folder)
            #expect(junit.root == "testsuites")
            #expect(junit.suite.name == "lumatrace regress")
            #expect(junit.suite.counts == .init(tests: goldens.count, failures: 0, errors: 0, skipped: 0))
            #expect(junit.rootCounts == junit.suite.counts)
            #expect(junit.cases.map(\.name) == goldens)
            for testCase in junit.cases {
                // Grouped by the corpus folder's name; the file is the golden as the folder was given.
                #expect(testCase.className == URL(fileURLWithPath: folder).lastPathComponent)
                #expect(testCase.file == folder + "/" + testCase.name)
                #expect(testCase.time == nil, "an untimed report has no time")
                #expect(testCase.failure == nil && testCase.error == nil, "\(testCase.name)")
                // An identical replay has as many events as its golden.
                #expect(testCase.properties["events.golden"] != nil)
                #expect(testCase.properties["events.golden"] == testCase.properties["events.new"], "\(testCase.name)")
            }
            // Nothing left behind but the report.
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { !$0.hasPrefix(".") })
        }
    }

    @Test("--set values are the suite's properties, in the order given, after the corpus folder")
    func settingsAsProperties() throws {
        try withCopyOfRecordings(["balls-synth", "toss-real"]) { folder in
            let report = folder + "/regress.xml"
            let sets = ["--set", "trajectory.trajectoryLength=15", "--set", "differencing.threshold=20"]
            let r = try CLI.run(["regress", folder + "/", "--junit", report] + sets)
            #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
            let junit = try JUnitFile(path: report)
            #expect(junit.suiteProperties.map(\.name) == ["folder", "set", "set"])
            #expect(junit.suiteProperties.map(\.value) == [folder + "/", "trajectory.trajectoryLength=15", "differencing.threshold=20"])
            // A folder given with its slash names the same files.
            #expect(junit.cases.map(\.file) == junit.cases.map { folder + "/" + $0.name })
        }
    }

    @Test("--junit-timings gives every case and the suite a time (the sum of the cases'); the rest is as without it")
    func timings() throws {
        try withCopyOfRecordings(["balls-synth", "toss-real"]) { folder in
            let (plain, timed) = (folder + "/plain.xml", folder + "/timed.xml")
            #expect(try CLI.run(["regress", folder, "--junit", plain]).status == 0)
            let r = try CLI.run(["regress", folder, "--junit", timed, "--junit-timings"])
            #expect(r.status == 0, "\(r.stderr)")
            let junit = try JUnitFile(path: timed)
            let times = try junit.cases.map { try #require($0.time, "\($0.name) has no time") }
            #expect(times.allSatisfy { $0 > 0 }, "\(times)")
            let suiteTime = try #require(junit.suiteTime)
            #expect(abs(suiteTime - times.reduce(0, +)) <= 0.001 * Double(times.count), "\(suiteTime) vs \(times)")
            // Without the times, the timed report is the untimed one, byte for byte.
            let stripped = try String(contentsOfFile: timed, encoding: .utf8)
                .replacingOccurrences(of: #" time="[0-9]+\.[0-9]{3}""#, with: "", options: .regularExpression)
            #expect(stripped == (try String(contentsOfFile: plain, encoding: .utf8)))
            // Given without a report to put them in, it is refused.
            let alone = try CLI.run(["regress", folder, "--junit-timings"])
            #expect(alone.status == 64 && alone.stderr.contains("--junit-timings applies with --junit"), "\(alone.stderr)")
        }
    }

    @Test("a merge reports the times its shards measured with --junit-timings, and refuses when they measured none")
    func timedMerge() throws {
        try withCopyOfRecordings(["balls-synth", "toss-real"]) { folder in
            try withScratchFolder("junit") { out in
                for k in 0..<2 {
                    #expect(try CLI.run(["regress", folder, "--shard", "\(k)/2", "-o", "\(out)/timed-\(k).json", "--junit-timings"]).status == 0)
                    #expect(try CLI.run(["regress", folder, "--shard", "\(k)/2", "-o", "\(out)/plain-\(k).json"]).status == 0)
                }
                let merged = try CLI.run(["regress", "merge", "\(out)/timed-0.json", "\(out)/timed-1.json", "--junit", "\(out)/timed.xml", "--junit-timings"])
                #expect(merged.status == 0, "\(merged.stderr)")
                #expect(try JUnitFile(path: "\(out)/timed.xml").cases.allSatisfy { $0.time != nil })
                // Asked for no times, the merge of timed parts is the untimed report.
                #expect(try CLI.run(["regress", "merge", "\(out)/timed-0.json", "\(out)/timed-1.json", "--junit", "\(out)/a.xml"]).status == 0)
                #expect(try CLI.run(["regress", "merge", "\(out)/plain-0.json", "\(out)/plain-1.json", "--junit", "\(out)/b.xml"]).status == 0)
                #expect(try Data(contentsOf: URL(fileURLWithPath: "\(out)/a.xml")) == Data(contentsOf: URL(fileURLWithPath: "\(out)/b.xml")))
                let refused = try CLI.run(["regress", "merge", "\(out)/plain-0.json", "\(out)/plain-1.json", "--junit", "\(out)/c.xml", "--junit-timings"])
                #expect(refused.status == 2 && refused.stderr.contains("the parts hold no times"), "\(refused.stderr)")
                // A part's time that is no time (negative, not finite, not a number, absurdly large) is refused naming the part and golden.
                let text = try String(contentsOfFile: "\(out)/timed-0.json", encoding: .utf8)
                let time = try #require(text.range(of: #""seconds":[0-9.e+-]+"#, options: .regularExpression))
                for hostile in ["-5", "1e308", "1000000000000000000000000000000", #""abc""#, "null", "1e999"] {
                    let edited = text.replacingCharacters(in: time, with: "\"seconds\":" + hostile)
                    try Data(edited.utf8).write(to: URL(fileURLWithPath: "\(out)/hostile.json"))
                    let merge = try CLI.run(["regress", "merge", "\(out)/hostile.json", "\(out)/timed-1.json", "--junit", "\(out)/h.xml", "--junit-timings"])
                    let named = merge.stderr.contains("outcome 1 (") && merge.stderr.contains("a time is a number of seconds within 0...1000000")
                    #expect(merge.status == 2 && merge.stderr.contains("\(out)/hostile.json") && (named || hostile == "1e999"), "\(hostile): \(merge.stderr)")
                    #expect(!FileManager.default.fileExists(atPath: "\(out)/h.xml"))
                }
            }
        }
    }

    @Test("a score dropping beyond its tolerance is a <failure> holding what regress prints for it; a change within it passes")
    func failingTolerance() throws {
        try withCopyOfRecordings(["balls-synth", "toss-real"]) { folder in
            let report = folder + "/regress.xml"
            let options = Self.longerTrajectories + ["--tolerance", "f1=0.01"]
            let r = try CLI.run(["regress", folder, "--junit", report] + options)
            #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
            let junit = try JUnitFile(path: report)
            #expect(junit.suite.counts == .init(tests: 2, failures: 1, errors: 0, skipped: 0))

            let printed = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let balls = try #require(junit.cases.first { $0.name == "balls-synth.events.jsonl" })
            let failure = try #require(balls.failure)
            // The failure's text ends with the lines regress printed after the table for this golden…
            let section = Self.section(of: "balls-synth.events.jsonl", in: printed)
            #expect(section.contains { $0.hasPrefix("  worse: trajectory F1") })
            #expect(failure.text.hasSuffix(section.joined(separator: "\n")), "\(failure.text)")
            // …after the cells of its row in the table: events and trajectory F1 as printed there.
            let row = try #require(printed.first { $0.hasPrefix("balls-synth.events.jsonl ") })
            let cells = row.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            for (heading, cell) in zip(["events", "result", "trajectory F1"], cells.dropFirst()) {
                #expect(failure.text.contains("\(heading): \(cell)\n"), "\(heading): \(cell) in \(failure.text)")
            }
            // The message is one line: the differences, then every score that got worse.
            #expect(!failure.message.contains("\n"))
            let differences = try #require(section.last { $0.hasPrefix("  ") && $0.contains("difference") })
            #expect(failure.message.hasPrefix(differences.dropFirst(2) + "; worse: "), "\(failure.message)")
            for worse in section.filter({ $0.hasPrefix("  worse: ") }) {
                #expect(failure.message.contains(worse.dropFirst("  worse: ".count)), "\(failure.message)")
            }
            // Its properties are the JSON report's numbers.
            let json = try CLI.run(["regress", folder, "--json"] + options)
            let entry = try #require(Self.jsonRecordings(json.stdout).first { $0["golden"] as? String == balls.name })
            let events = try #require(entry["events"] as? [Int])
            #expect(balls.properties["events.golden"] == "\(events[0])" && balls.properties["events.new"] == "\(events[1])")
            let (old, new) = (try #require(Double(balls.properties["f1.golden"] ?? "")), try #require(Double(balls.properties["f1.new"] ?? "")))
            #expect(old > new + 0.01)
            let goldenF1 = try #require(((entry["goldenScore"] as? [String: Any])?["trajectories"] as? [String: Any])?["f1"] as? Double)
            #expect(abs(old - goldenF1) < 1e-9)

            // toss-real changed but kept its scores: it passes, its differences in <system-out>.
            let toss = try #require(junit.cases.first { $0.name == "toss-real.events.jsonl" })
            #expect(toss.failure == nil && toss.error == nil)
            let tossSection = Self.section(of: toss.name, in: printed)
            #expect(!tossSection.isEmpty && toss.systemOut == tossSection.joined(separator: "\n"))
        }
    }

    @Test("a golden whose recording is missing could not be run: an <error> with the reason regress gives")
    func unrunnableGolden() throws {
        try withCopyOfRecordings(["balls-synth", "toss-real"]) { folder in
            try FileManager.default.removeItem(atPath: folder + "/toss-real.luma")
            let report = folder + "/regress.xml"
            let r = try CLI.run(["regress", folder, "--junit", report])
            #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
            let junit = try JUnitFile(path: report)
            #expect(junit.suite.counts == .init(tests: 2, failures: 0, errors: 1, skipped: 0))
            let toss = try #require(junit.cases.first { $0.name == "toss-real.events.jsonl" })
            let error = try #require(toss.error)
            #expect(toss.failure == nil)
            let printed = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix("toss-real.events.jsonl: error: ") })
            #expect(error.message == printed.dropFirst("toss-real.events.jsonl: error: ".count))
            #expect(error.message.contains("toss-real.luma"))
            let balls = try #require(junit.cases.first { $0.name == "balls-synth.events.jsonl" })
            #expect(balls.failure == nil && balls.error == nil)
        }
    }

    @Test("a golden named with &, <, >, quotes and a control character gives well-formed XML that reads back the name")
    func escaping() throws {
        try withCopyOfRecordings(["balls-synth"]) { source in
            let odd = "a&b <\"c\"> 'd' \u{1B}.events.jsonl"
            try FileManager.default.moveItem(atPath: source + "/balls-synth.events.jsonl", toPath: source + "/" + odd)
            let report = source + "/regress.xml"
            let r = try CLI.run(["regress", source, "--junit", report] + Self.longerTrajectories)
            #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: report))
            // XML 1.0 cannot hold an escape character, not even as &#27;: it is written as text.
            #expect(!bytes.contains { $0 < 0x20 && $0 != 0x0A })
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.contains("name=\"a&amp;b &lt;&quot;c&quot;&gt; 'd' \\u{1B}.events.jsonl\""))
            let junit = try JUnitFile(path: report)
            let testCase = try #require(junit.cases.first)
            #expect(testCase.name == "a&b <\"c\"> 'd' \\u{1B}.events.jsonl")
            #expect(try #require(testCase.failure).text.contains("a&b <\"c\"> 'd' \\u{1B}.events.jsonl:\n"))
        }
    }

    @Test("an existing report is replaced only with --force; an input, or a file of another kind, never")
    func existingReport() throws {
        try withCopyOfRecordings(["balls-synth"]) { folder in
            let report = folder + "/regress.xml"
            try "an earlier report\n".write(toFile: report, atomically: true, encoding: .utf8)
            let refused = try CLI.run(["regress", folder, "--junit", report])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("\(report): already exists") && refused.stderr.contains("--force"), "\(refused.stderr)")
            // Refused before anything ran: no table.
            #expect(refused.stdout.isEmpty)
            #expect(try String(contentsOfFile: report, encoding: .utf8) == "an earlier report\n")

            // Text of no kind (a user's notes) is not a report --force replaces; an earlier report is.
            let notes = try CLI.run(["regress", folder, "--junit", report, "--force"])
            #expect(notes.status == 2 && notes.stderr.contains("\(report): is a text file, not a JUnit report"), "\(notes.stderr)")
            #expect(try String(contentsOfFile: report, encoding: .utf8) == "an earlier report\n")
            try "<?xml version=\"1.0\"?>\n<testsuites><testsuite name=\"old\"/></testsuites>\n".write(toFile: report, atomically: true, encoding: .utf8)
            let forced = try CLI.run(["regress", folder, "--junit", report, "--force"])
            #expect(forced.status == 0, "\(forced.stderr)")
            #expect(try JUnitFile(path: report).suite.counts.tests == 1)
            // A JUnit report replaces a JUnit report, and no result of another kind replaces it.
            #expect(try CLI.run(["regress", folder, "--junit", report, "--force"]).status == 0)
            let replay = try CLI.run(["replay", folder + "/balls-synth.luma", "--analyzer", "differencing", "-o", report, "--force"])
            #expect(replay.status == 2 && replay.stderr.contains("\(report): is a JUnit report, not an event log"), "\(replay.stderr)")
            #expect(try JUnitFile(path: report).suite.counts.tests == 1)

            for input in ["balls-synth.events.jsonl", "balls-synth.luma", "balls-synth.truth.json"] {
                let path = folder + "/" + input
                let before = try Data(contentsOf: URL(fileURLWithPath: path))
                let r = try CLI.run(["regress", folder, "--junit", path, "--force"])
                #expect(r.status == 2 && r.stderr.contains("\(path): is this command's input"), "\(input): \(r.stderr)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
            }
            let page = folder + "/page.html"
            try "<!DOCTYPE html><html></html>\n".write(toFile: page, atomically: true, encoding: .utf8)
            let other = try CLI.run(["regress", folder, "--junit", page, "--force"])
            #expect(other.status == 2 && other.stderr.contains("\(page): is an HTML page, not a JUnit report"), "\(other.stderr)")
        }
    }

    @Test("the same run gives the same bytes: --jobs 1, --jobs 3, and the merge of two shards")
    func deterministic() throws {
        try withCopyOfRecordings { folder in
            try withScratchFolder("junit") { out in
                for jobs in ["1", "3"] {
                    let r = try CLI.run(["regress", folder, "--jobs", jobs, "--junit", "\(out)/jobs-\(jobs).xml"] + Self.longerTrajectories)
                    #expect(r.status == 1, "\(r.stderr)")
                }
                for k in 0..<2 {
                    let r = try CLI.run(["regress", folder, "--shard", "\(k)/2", "-o", "\(out)/part-\(k).json"] + Self.longerTrajectories)
                    #expect(r.status == 0, "\(r.stderr)")
                }
                let merged = try CLI.run(["regress", "merge", "\(out)/part-0.json", "\(out)/part-1.json", "--junit", "\(out)/merged.xml"])
                #expect(merged.status == 1, "\(merged.stderr)")
                let one = try Data(contentsOf: URL(fileURLWithPath: "\(out)/jobs-1.xml"))
                #expect(try JUnitFile(path: "\(out)/jobs-1.xml").suite.counts.failures > 0)
                #expect(try Data(contentsOf: URL(fileURLWithPath: "\(out)/jobs-3.xml")) == one)
                #expect(try Data(contentsOf: URL(fileURLWithPath: "\(out)/merged.xml")) == one)
            }
        }
    }

    @Test("--junit - writes the report on stdout and the table on stderr; it is refused with --json and with --shard")
    func standardOutput() throws {
        try withCopyOfRecordings(["toss-real"]) { folder in
            let r = try CLI.run(["regress", folder, "--junit", "-"])
            #expect(r.status == 0, "\(r.stderr)")
            let junit = try JUnitFile(data: Data(r.stdout.utf8))
            #expect(junit.cases.map(\.name) == ["toss-real.events.jsonl"])
            #expect(r.stderr.contains("1 recording: 1 unchanged, 0 changed"))

            let json = try CLI.run(["regress", folder, "--junit", "-", "--json"])
            #expect(json.status == 64 && json.stderr.contains("--junit - and --json would both write to standard output"), "\(json.stderr)")
            let shard = try CLI.run(["regress", folder, "--shard", "0/2", "-o", Scratch.path("part.json"), "--junit", Scratch.path("r.xml")])
            #expect(shard.status == 64 && shard.stderr.contains("regress merge"), "\(shard.stderr)")
            let force = try CLI.run(["regress", folder, "--force"])
            #expect(force.status == 64 && force.stderr.contains("--force applies with --shard"), "\(force.stderr)")
        }
    }

    @Test("the help says what --junit writes, how an existing report is treated, and where the CI guide is")
    func help() throws {
        let run = try CLI.run(["regress", "run", "--help"])
        let option = run.stdout.components(separatedBy: "--junit <file>").dropFirst().first ?? ""
        let words = option.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("JUnit XML report") && words.contains("one test case per golden log"), "\(run.stdout)")
        #expect(words.contains("replaced only with --force") && words.contains("- writes the report to standard output"))
        let timings = run.stdout.components(separatedBy: "--junit-timings").dropFirst().first ?? ""
        #expect(timings.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("The report then differs from run to run"), "\(run.stdout)")
        let overview = try CLI.run(["regress", "--help"])
        #expect(overview.stdout.contains("--junit regress.xml") && overview.stdout.contains("docs/ci.md"))
        #expect(FileManager.default.fileExists(atPath: PackageLayout.root.appendingPathComponent("docs/ci.md").path))
    }

    // MARK: - Helpers

    /// Runs `body` with a scratch folder holding a copy of the bundled recordings (all, or those
    /// named) with their goldens and truth.
    func withCopyOfRecordings<T>(_ names: [String]? = nil, _ body: (String) throws -> T) throws -> T {
        try withScratchFolder("junit") { folder in
            for file in try FileManager.default.contentsOfDirectory(atPath: Self.recordings.path) where !file.hasPrefix(".") && file != "README.md" {
                guard names?.contains(String(file.prefix { $0 != "." })) ?? true else { continue }
                try FileManager.default.copyItem(atPath: Self.recordings.appendingPathComponent(file).path, toPath: folder + "/" + file)
            }
            return try body(folder)
        }
    }

    func goldenNames(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".events.jsonl") }.sorted()
    }

    /// The lines regress printed after the table for `golden`: from `golden:` to the blank line.
    static func section(of golden: String, in lines: [String]) -> [String] {
        guard let start = lines.firstIndex(of: golden + ":") else { return [] }
        return Array(lines[start...].prefix { !$0.isEmpty })
    }

    static func jsonRecordings(_ text: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return object?["recordings"] as? [[String: Any]] ?? []
    }
}

/// A JUnit report read back with Foundation's XML parser: a report it cannot parse fails the test.
struct JUnitFile {
    struct Counts: Equatable { var tests, failures, errors, skipped: Int }
    struct Problem { var message: String; var text: String }
    struct Case {
        var name: String
        var className: String
        var file: String
        var time: Double?
        var properties: [String: String]
        var failure: Problem?
        var error: Problem?
        var systemOut: String?
    }

    var root: String
    var rootCounts: Counts
    var suite: (name: String, counts: Counts)
    var suiteProperties: [(name: String, value: String)]
    var suiteTime: Double?
    var cases: [Case]

    init(path: String) throws { try self.init(data: Data(contentsOf: URL(fileURLWithPath: path))) }

    init(data: Data) throws {
        let document = try XMLDocument(data: data, options: [])
        let top = try #require(document.rootElement())
        root = top.name ?? ""
        rootCounts = try Self.counts(of: top)
        let suites = top.elements(forName: "testsuite")
        try #require(suites.count == 1)
        suite = (suites[0].attribute(forName: "name")?.stringValue ?? "", try Self.counts(of: suites[0]))
        suiteProperties = (suites[0].elements(forName: "properties").first?.elements(forName: "property") ?? []).map {
            ($0.attribute(forName: "name")?.stringValue ?? "", $0.attribute(forName: "value")?.stringValue ?? "")
        }
        suiteTime = suites[0].attribute(forName: "time")?.stringValue.flatMap(Double.init)
        cases = suites[0].elements(forName: "testcase").map { element in
            func problem(_ name: String) -> Problem? {
                element.elements(forName: name).first.map {
                    Problem(message: $0.attribute(forName: "message")?.stringValue ?? "", text: $0.stringValue ?? "")
                }
            }
            var properties: [String: String] = [:]
            for p in element.elements(forName: "properties").first?.elements(forName: "property") ?? [] {
                properties[p.attribute(forName: "name")?.stringValue ?? ""] = p.attribute(forName: "value")?.stringValue
            }
            return Case(name: element.attribute(forName: "name")?.stringValue ?? "",
                        className: element.attribute(forName: "classname")?.stringValue ?? "",
                        file: element.attribute(forName: "file")?.stringValue ?? "",
                        time: element.attribute(forName: "time")?.stringValue.flatMap(Double.init), properties: properties,
                        failure: problem("failure"), error: problem("error"),
                        systemOut: element.elements(forName: "system-out").first?.stringValue)
        }
    }

    static func counts(of element: XMLElement) throws -> Counts {
        func count(_ name: String) throws -> Int { try #require(Int(element.attribute(forName: name)?.stringValue ?? "")) }
        return Counts(tests: try count("tests"), failures: try count("failures"), errors: try count("errors"), skipped: try count("skipped"))
    }
}
