import Foundation
import LumaAnalysis
import LumaEngine
import LumaFormat
import LumaRegression
import LumaRender
import LumaTestSupport
import Testing
import TrajectoryAnalyzer

/// `lumatrace sweep`: a grid of settings, each recording of a corpus decoded once per pass, every
/// setting scored against the truth as `replay` + `score` would score it.
@Suite("Sweep: the grid")
struct SweepGridTests {
    let trajectory = AnalyzerDescriptor(TrajectoryAnalyzer.self)

    func grid(_ texts: [String], fixed: [(key: String, value: String)] = []) throws -> SweepGrid {
        try SweepGrid(name: "trajectory", analyzer: trajectory, grid: texts, fixed: fixed)
    }

    @Test("a list keeps its values as given; a range gives COUNT evenly spaced values, both ends included, in the log's fixed decimals")
    func listsAndRanges() throws {
        #expect(try grid(["trajectory.trajectoryLength=8,10,15"]).axes == [SweepAxis(key: "trajectoryLength", values: ["8", "10", "15"])])
        #expect(try grid(["trajectory.objectMinimumNormalizedRadius=0.005:0.02:4"]).axes[0].values == ["0.005", "0.01", "0.015", "0.02"])
        #expect(try grid(["trajectory.minimumConfidence=0:1:3"]).axes[0].values == ["0", "0.5", "1"])
        #expect(try grid(["trajectory.trajectoryLength=6:15:4"]).axes[0].values == ["6", "9", "12", "15"])
    }

    @Test("a range over an integer option that lands between integers, or repeats, is refused naming the option")
    func integerRanges() throws {
        #expect(throws: SweepError.notWhole(option: "trajectory.trajectoryLength", text: "8:15:3", value: "11.5")) {
            try grid(["trajectory.trajectoryLength=8:15:3"])
        }
        #expect(throws: SweepError.repeated(option: "trajectory.trajectoryLength", text: "8:8:2", value: "8")) {
            try grid(["trajectory.trajectoryLength=8:8:2"])
        }
        #expect(throws: SweepError.repeated(option: "trajectory.trajectoryLength", text: "8,9,8", value: "8")) {
            try grid(["trajectory.trajectoryLength=8,9,8"])
        }
        #expect(throws: SweepError.self) { try grid(["trajectory.trajectoryLength=8:15:1"]) }
        #expect(throws: SweepError.self) { try grid(["trajectory.trajectoryLength=8,,9"]) }
    }

    @Test("two spellings of one value (8 and 08, 8 and +8, 0.5 and 5e-1, 0 and -0) are refused as one value given twice, naming both")
    func sameValueSpelledTwice() throws {
        for (text, first, second) in [("trajectory.trajectoryLength=8,08", "8", "08"), ("trajectory.trajectoryLength=8,10,+8", "8", "+8"),
                                      ("trajectory.minimumConfidence=0.5,0.50,5e-1", "0.5", "0.50"), ("trajectory.minimumConfidence=0,-0", "0", "-0")] {
            let option = String(text.prefix { $0 != "=" })
            let values = String(text.drop { $0 != "=" }.dropFirst())
            let refusal = #expect(throws: SweepError.self, "\(text)") { try grid([text]) }
            #expect(refusal == .sameValue(option: option, text: values, value: second, sameAs: first), "\(text)")
            #expect(refusal?.description.contains("\(second) and \(first) are the same value") == true, "\(String(describing: refusal))")
        }
        // Values that differ as numbers are kept, however close.
        #expect(try grid(["trajectory.minimumConfidence=0.5,0.51"]).axes[0].values == ["0.5", "0.51"])
    }

    @Test("several --grid make the product, the first changing slowest; ids follow that order")
    func product() throws {
        let g = try grid(["trajectory.trajectoryLength=8,15", "trajectory.objectMinimumNormalizedRadius=0.005,0.01,0.02"])
        let settings = g.settings
        #expect(settings.map(\.id) == ["s01", "s02", "s03", "s04", "s05", "s06"])
        #expect(settings.map { $0.values.map(\.value) } == [["8", "0.005"], ["8", "0.01"], ["8", "0.02"], ["15", "0.005"], ["15", "0.01"], ["15", "0.02"]])
        #expect(g.replayFlags(settings[4]) == ["--analyzer", "trajectory", "--set", "trajectory.trajectoryLength=15",
                                               "--set", "trajectory.objectMinimumNormalizedRadius=0.01"])
        let wide = try grid(["trajectory.trajectoryLength=5:104:100", "trajectory.minimumConfidence=0,1"])
        #expect(wide.settings.first?.id == "s001" && wide.settings.last?.id == "s200")
    }

    @Test("every value is checked by the analyzer's own rules, alone and with the fixed options, naming option and value")
    func analyzerRules() throws {
        let alone = #expect(throws: OptionError.self) { try grid(["trajectory.trajectoryLength=8,3"]) }
        #expect(alone?.option == "trajectory.trajectoryLength" && alone?.message.contains("3") == true, "\(String(describing: alone))")
        let together = #expect(throws: OptionError.self) {
            try grid(["trajectory.objectMinimumNormalizedRadius=0.01,0.5"], fixed: [("objectMaximumNormalizedRadius", "0.1")])
        }
        #expect(together?.option.hasPrefix("trajectory.") == true && together?.message.contains("0.5") == true, "\(String(describing: together))")
        #expect(throws: OptionError.self) { try grid(["trajectory.noSuchOption=1,2"]) }
        // Each value is allowed alone; 0.5 as the smallest radius with 0.2 as the largest is not.
        let combined = #expect(throws: OptionError.self) {
            try grid(["trajectory.objectMinimumNormalizedRadius=0.01,0.5", "trajectory.objectMaximumNormalizedRadius=0.2,1"])
        }
        #expect(combined?.option.hasPrefix("trajectory.object") == true, "\(String(describing: combined))")
    }

    @Test("a grid names one option once, of the analyzer swept, and holds at most maximumSettings; the refusal says how to split")
    func limits() throws {
        #expect(throws: SweepError.givenTwice(option: "trajectory.trajectoryLength")) {
            try grid(["trajectory.trajectoryLength=8,9", "trajectory.trajectoryLength=10"])
        }
        #expect(throws: SweepError.givenTwice(option: "trajectory.trajectoryLength")) {
            try grid(["trajectory.trajectoryLength=8,9"], fixed: [("trajectoryLength", "10")])
        }
        #expect(throws: SweepError.otherAnalyzer(grid: "tracking.x=1", analyzer: "trajectory")) { try grid(["tracking.x=1"]) }
        #expect(throws: SweepError.notAGrid("trajectory=1")) { try grid(["trajectory=1"]) }
        let big = #expect(throws: SweepError.self) {
            try grid(["trajectory.trajectoryLength=5:1004:1000", "trajectory.minimumConfidence=0,1"])
        }
        #expect(big == .tooManySettings(count: SweepGrid.maximumSettings + 1, limit: SweepGrid.maximumSettings, largest: "trajectory.trajectoryLength"))
        #expect(big?.description.contains("split it into several sweeps") == true)
    }

    @Test("a replay kept in memory reads back as the same log as a replay to a file")
    func inMemoryReplay() throws {
        try withScratchFolder("sweep") { dir in
            let registry = AnalyzerRegistry([trajectory])
            let setups = try grid(["trajectory.trajectoryLength=8,15"]).setups(registry: registry)
            let reader = try RecordingReader(path: SweepCommandTests.recordings + "/toss-real.luma")
            let memory = try Replay.runInMemory(reader, setups: setups, registry: registry, options: ReplayOptions(jobs: 2))
            _ = try Replay.run(reader, setups: setups, registry: registry, options: ReplayOptions(jobs: 1), logPath: dir + "/file.events.jsonl")
            let file = try EventLog.read(dir + "/file.events.jsonl")
            #expect(memory.headerJSON == file.headerJSON && memory.footer == file.footer)
            #expect(memory.events.map(\.json.serialized) == file.events.map(\.json.serialized) && !memory.events.isEmpty)
        }
    }

    @Test("fixed options come first in a setting's replay flags; an instance name is kept as INSTANCE=ANALYZER")
    func flags() throws {
        let g = try grid(["trajectory.trajectoryLength=8,15"], fixed: [("design", "window")])
        #expect(g.replayFlags(g.settings[1]) == ["--analyzer", "trajectory", "--set", "trajectory.design=window", "--set", "trajectory.trajectoryLength=15"])
        let named = try SweepGrid(name: "fast", analyzer: trajectory, grid: ["fast.trajectoryLength=8,15"])
        #expect(named.replayFlags(named.settings[0]) == ["--analyzer", "fast=trajectory", "--set", "fast.trajectoryLength=8"])
        #expect(try named.setups(registry: AnalyzerRegistry([trajectory])).map(\.name) == ["s01", "s02"])
    }

    @Test("the best is the highest pooled score as printed; a tie goes to the earlier setting; none without ball segments")
    func best() throws {
        let g = try grid(["trajectory.trajectoryLength=8,10,15"])
        let score = { (found: Int, correct: Int) in
            SweepScore(trajectories: .init(segments: 4, found: found, reported: 4, correct: correct))
        }
        let result = SweepResult(grid: g, settings: g.settings, recordings: ["a.luma"], withoutTruth: [],
                                 scores: [[score(2, 4)], [score(3, 3)], [score(3, 3)]], passes: 1)
        #expect(result.best(by: .f1) == 1 && result.best(by: .recall) == 1 && result.best(by: .precision) == 0)
        let tracksOnly = SweepResult(grid: g, settings: g.settings, recordings: ["a.luma"], withoutTruth: [],
                                     scores: [[SweepScore(tracking: .init(frames: 1))], [SweepScore()], [SweepScore()]], passes: 1)
        #expect(tracksOnly.best(by: .f1) == nil)
        #expect(SweepReport(tracksOnly, best: .f1).bestLine.contains("none"))
    }

    @Test("pooled scores sum the counts, then take the ratios; the median error is over every point")
    func pooling() {
        let a = SweepScore(events: 3, trajectories: .init(segments: 4, found: 3, reported: 3, correct: 3, pointErrors: [1, 2, 9]))
        let b = SweepScore(events: 5, trajectories: .init(segments: 1, found: 0, reported: 2, correct: 0, pointErrors: []))
        let c = SweepScore(events: 0, tracking: .init(frames: 30, successAUC: 0.5, precision20: 1, losses: 1))
        let d = SweepScore(events: 1, tracking: .init(frames: 10, successAUC: 0.1, precision20: 0, losses: 2))
        let p = SweepScore.pooled([a, b])
        #expect(p.events == 8 && p.trajectories?.recall == 3.0 / 5 && p.trajectories?.precision == 3.0 / 5 && p.trajectories?.medianError == 2)
        let k = SweepScore.pooled([c, d]).tracking
        #expect(k?.frames == 40 && k?.successAUC == (0.5 * 30 + 0.1 * 10) / 40 && k?.precision20 == 0.75 && k?.losses == 3)
    }

    @Test("the corpus is every .luma with STEM.truth.json beside it, in name order; the others are named; none with truth is refused")
    func corpus() throws {
        try withScratchFolder("sweep") { dir in
            for name in ["b.luma", "b.truth.json", "a.luma", "a.truth.json", "c.luma", "notes.txt"] {
                #expect(FileManager.default.createFile(atPath: "\(dir)/\(name)", contents: Data()))
            }
            let corpus = try SweepCorpus.list(dir)
            #expect(corpus.entries.map(\.name) == ["a.luma", "b.luma"])
            #expect(corpus.entries.map(\.truthPath) == ["\(dir)/a.truth.json", "\(dir)/b.truth.json"])
            #expect(corpus.withoutTruth == ["c.luma"])
            try FileManager.default.removeItem(atPath: "\(dir)/a.truth.json")
            try FileManager.default.removeItem(atPath: "\(dir)/b.truth.json")
            #expect(throws: SweepError.noTruth(folder: dir, recordings: 3)) { try SweepCorpus.list(dir) }
            #expect(throws: SweepError.self) { try SweepCorpus.list(dir + "/missing") }
        }
    }
}

@Suite("Sweep: the command")
struct SweepCommandTests {
    static let recordings = PackageLayout.root.appendingPathComponent("Recordings").path
    static let names = ["balls-synth", "toss-real"]
    static let lengths = ["8", "15"], radii = ["0.005", "0.01"]
    static let grid = ["--grid", "trajectory.trajectoryLength=8,15", "--grid", "trajectory.objectMinimumNormalizedRadius=0.005,0.01"]

    /// A corpus of the bundled balls-synth and toss-real recordings and their truth (links), in `dir`/corpus.
    static func corpus(in dir: String) throws -> String {
        let corpus = dir + "/corpus"
        try FileManager.default.createDirectory(atPath: corpus, withIntermediateDirectories: true)
        for name in names {
            for file in ["\(name).luma", "\(name).truth.json"] {
                try FileManager.default.createSymbolicLink(atPath: "\(corpus)/\(file)", withDestinationPath: "\(recordings)/\(file)")
            }
        }
        return corpus
    }

    static func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test("each setting's score on each recording equals replay --set … then score --json run separately; pooled are the summed counts")
    func equalsReplayThenScore() throws {
        try withScratchFolder("sweep") { dir in
            let corpus = try Self.corpus(in: dir)
            let run = try CLI.run(["sweep", corpus, "--analyzer", "trajectory"] + Self.grid + ["-o", dir + "/out"])
            #expect(run.status == 0, "\(run.stderr)")
            let sweep = try JSONParser.parse(String(decoding: try #require(Self.contents(dir + "/out/sweep.json")), as: UTF8.self))
            let settings = try #require(sweep["settings"]?.arrayValue)
            #expect(settings.count == 4)
            var index = 0
            for length in Self.lengths {
                for radius in Self.radii {
                    let setting = settings[index]
                    index += 1
                    let flags = ["--analyzer", "trajectory", "--set", "trajectory.trajectoryLength=\(length)",
                                 "--set", "trajectory.objectMinimumNormalizedRadius=\(radius)"]
                    #expect(setting["replayFlags"]?.arrayValue?.compactMap(\.stringValue) == flags)
                    var sums = (segments: 0, found: 0, reported: 0, correct: 0)
                    for (r, name) in Self.names.enumerated() {
                        let log = "\(dir)/\(name)-\(length)-\(radius).events.jsonl"
                        let replay = try CLI.run(["replay", "\(corpus)/\(name).luma"] + flags + ["-o", log, "--jobs", "1"])
                        #expect(replay.status == 0, "\(replay.stderr)")
                        let score = try CLI.run(["score", log, "--truth", "\(corpus)/\(name).truth.json", "--json"])
                        #expect(score.status == 0, "\(score.stderr)")
                        let alone = try #require(try JSONParser.parse(score.stdout)["trajectories"])
                        let swept = try #require(setting["recordings"]?.arrayValue?[r])
                        #expect(swept["recording"]?.stringValue == "\(name).luma")
                        for key in ["segments", "found", "correct"] {
                            #expect(swept["trajectories"]?[key]?.intValue == alone[key]?.intValue, "\(name) \(length) \(radius) \(key)")
                        }
                        #expect(swept["trajectories"]?["reported"]?.intValue == alone["reported"]?.intValue)
                        for key in ["recall", "precision", "f1", "medianErrorPixels"] {
                            #expect(swept["trajectories"]?[key]?.doubleValue == alone[key]?.doubleValue, "\(name) \(length) \(radius) \(key)")
                        }
                        #expect(swept["events"]?.intValue == (try EventLog.read(log)).events.count)
                        for (i, key) in ["segments", "found", "reported", "correct"].enumerated() {
                            let n = alone[key]?.intValue ?? -1
                            switch i { case 0: sums.segments += n; case 1: sums.found += n; case 2: sums.reported += n; default: sums.correct += n }
                        }
                    }
                    let pooled = setting["pooled"]?["trajectories"]
                    #expect(pooled?["found"]?.intValue == sums.found && pooled?["segments"]?.intValue == sums.segments)
                    #expect(pooled?["recall"]?.doubleValue == (Double(sums.found) / Double(sums.segments) * 1e6).rounded() / 1e6)
                    #expect(pooled?["precision"]?.doubleValue == (Double(sums.correct) / Double(sums.reported) * 1e6).rounded() / 1e6)
                }
            }
            // The best is said with the flags that reproduce it.
            #expect(run.stdout.contains("best by f1: s"), "\(run.stdout)")
            #expect(run.stdout.contains("lumatrace replay RECORDING --analyzer trajectory --set trajectory.trajectoryLength="), "\(run.stdout)")
        }
    }

    @Test("the outputs are byte-identical at --jobs 1 and --jobs 2, and in one pass or several (the instance limit, or a memory budget of one instance)")
    func deterministic() throws {
        try withScratchFolder("sweep") { dir in
            let corpus = try Self.corpus(in: dir)
            // The budget of one trajectory instance beside the replay of the corpus's largest recording: passes of 1.
            let descriptor = AnalyzerDescriptor(TrajectoryAnalyzer.self)
            let registry = AnalyzerRegistry([descriptor])
            let grid = try SweepGrid(name: "trajectory", analyzer: descriptor, grid: [Self.grid[1], Self.grid[3]])
            let plan = try #require(ReplayMemory.largest(of: try Self.names.map { ReplayMemory(try RecordingReader(path: "\(corpus)/\($0).luma")) }))
            let onePerPass = plan.replayBytes + (try grid.setups(registry: registry)).map { plan.instanceBytes($0, registry: registry) }.max()!
            let listing = try SweepCorpus.list(corpus)
            #expect(try SweepRun.passSize(grid, corpus: listing, registry: registry, budget: MemoryBudget(bytes: onePerPass)) == 1)
            #expect(try SweepRun.passSize(grid, corpus: listing, registry: registry, budget: .standard) == AnalyzerSetup.instanceLimit)
            var runs: [String: ProgramResult] = [:]
            for (out, extra, environment) in [("j1", ["--jobs", "1"], [String: String]?.none), ("j2", ["--jobs", "2"], nil),
                                              ("passes", ["--jobs", "2"], ["LUMATRACE_MAX_ANALYZERS": "3"]),
                                              ("budget", ["--jobs", "2"], ["LUMATRACE_MEMORY_BUDGET": "\(onePerPass)"])] {
                var env = ProcessInfo.processInfo.environment
                env.merge(environment ?? [:]) { $1 }
                let run = try CLI.run(["sweep", corpus] + Self.grid + extra + ["-o", "\(dir)/\(out)"], environment: env)
                #expect(run.status == 0, "\(run.stderr)")
                runs[out] = run
            }
            for file in SweepReport.fileNames + SweepPage.fileNames {
                let one = try #require(Self.contents("\(dir)/j1/\(file)"))
                for other in ["j2", "passes", "budget"] { #expect(one == Self.contents("\(dir)/\(other)/\(file)"), "\(other)/\(file)") }
            }
            #expect(runs["j1"]?.stdout.contains("(1 replay of each)") == true, "\(runs["j1"]?.stdout ?? "")")
            #expect(runs["passes"]?.stdout.contains("(2 replays of each)") == true, "\(runs["passes"]?.stdout ?? "")")
            #expect(runs["budget"]?.stdout.contains("(4 replays of each)") == true, "\(runs["budget"]?.stdout ?? "")")
        }
    }

    @Test("messages say what is wrong: a negative --random or --seed, a reversed or countless range, a recording with no frames or damaged, an analyzer failing on a recording")
    func messages() throws {
        try withScratchFolder("sweep") { dir in
            let corpus = try Self.corpus(in: dir)
            func sweep(_ arguments: [String], in folder: String? = nil) throws -> ProgramResult {
                try CLI.run(["sweep", folder ?? corpus] + arguments + ["-o", dir + "/out"])
            }
            let grid = ["--grid", "trajectory.trajectoryLength=8,10"]
            for (arguments, words) in [(grid + ["--random", "-1"], "--random -1: the number of settings to draw is within 1...1024"), (grid + ["--random", "1", "--seed", "-1"], "-1"),
                                       (["--grid", "trajectory.minimumConfidence=0.5:0.5", "--random", "2"], "a range FROM:TO needs FROM below TO"),
                                       (["--grid", "trajectory.minimumConfidence=0:1"], "a range is FROM:TO:COUNT"),
                                       (["--grid", "trajectory.minimumConfidence=0:1"], "(--random N)")] {
                let r = try sweep(arguments)
                #expect(r.status == 64 && r.stderr.contains(words) && !r.stderr.contains("Missing value"), "\(arguments): \(r.stderr)")
            }
            // A corpus recording with no readable frame is blamed, not its truth.
            let broken = dir + "/broken"
            try FileManager.default.createDirectory(atPath: broken, withIntermediateDirectories: true)
            let toss = try #require(FileManager.default.contents(atPath: Self.recordings + "/toss-real.luma"))
            try toss.prefix(toss.count / 100).write(to: URL(fileURLWithPath: broken + "/toss-real.luma"))
            try FileManager.default.copyItem(atPath: Self.recordings + "/toss-real.truth.json", toPath: broken + "/toss-real.truth.json")
            let empty = try sweep(grid, in: broken)
            #expect(empty.status == 2 && empty.stderr.contains("toss-real.luma") && !empty.stderr.contains("truth.json"), "\(empty.stderr)")
            // A damaged one says so without --skip-damaged, which sweep does not have.
            var damaged = toss
            for i in stride(from: damaged.count / 3, to: damaged.count / 3 + 64, by: 1) { damaged[i] ^= 0x5A }
            try damaged.write(to: URL(fileURLWithPath: broken + "/toss-real.luma"))
            let hurt = try sweep(grid, in: broken)
            #expect(hurt.status == 2 && hurt.stderr.contains("toss-real.luma") && !hurt.stderr.contains("--skip-damaged"), "\(hurt.stderr)")
            // An analyzer that fails says on which recording.
            let failing = try sweep(["--grid", #"external.command="false","true""#])
            #expect(failing.status == 2 && failing.stderr.contains("balls-synth.luma: analyzer s01 failed"), "\(failing.stderr)")
        }
    }

    @Test("a memory budget that not one instance fits is refused before anything runs, with the memory needed; a budget that is no size is a usage error naming the variable")
    func memoryBudget() throws {
        try withScratchFolder("sweep") { dir in
            let corpus = try Self.corpus(in: dir)
            var env = ProcessInfo.processInfo.environment
            env["LUMATRACE_MEMORY_BUDGET"] = "8M"
            let small = try CLI.run(["sweep", corpus] + Self.grid + ["-o", dir + "/out"], environment: env)
            #expect(small.status == 2 && small.stderr.contains("one analyzer instance on ") && small.stderr.contains("over the memory budget of 8 MiB"),
                    "\(small.stderr)")
            env["LUMATRACE_MEMORY_BUDGET"] = "lots"
            let bad = try CLI.run(["sweep", corpus] + Self.grid + ["-o", dir + "/out"], environment: env)
            #expect(bad.status == 64 && bad.stderr.contains("LUMATRACE_MEMORY_BUDGET='lots' is not a memory size"), "\(bad.stderr)")
            let replay = try CLI.run(["replay", "\(corpus)/toss-real.luma", "-o", dir + "/r.jsonl"], environment: env)
            #expect(replay.status == 64 && replay.stderr.contains("LUMATRACE_MEMORY_BUDGET='lots'"), "\(replay.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/out") && !FileManager.default.fileExists(atPath: dir + "/r.jsonl"))
        }
    }

    @Test("refused: an impossible value (64, naming option and value), an existing output without --force, an output inside the corpus, a corpus without truth")
    func refusals() throws {
        try withScratchFolder("sweep") { dir in
            let corpus = try Self.corpus(in: dir)
            let bad = try CLI.run(["sweep", corpus, "--grid", "trajectory.trajectoryLength=8,2", "-o", dir + "/out"])
            #expect(bad.status == 64 && bad.stderr.contains("trajectory.trajectoryLength") && bad.stderr.contains("2 is outside"), "\(bad.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/out"))
            let notWhole = try CLI.run(["sweep", corpus, "--grid", "trajectory.trajectoryLength=8:15:3", "-o", dir + "/out"])
            #expect(notWhole.status == 64 && notWhole.stderr.contains("is an integer, and the range gives 11.5"), "\(notWhole.stderr)")

            #expect(try CLI.run(["sweep", corpus, "--grid", "trajectory.trajectoryLength=8,15", "-o", dir + "/out"]).status == 0)
            let first = Self.contents(dir + "/out/sweep.txt")
            let again = try CLI.run(["sweep", corpus, "--grid", "trajectory.trajectoryLength=10,15", "-o", dir + "/out"])
            #expect(again.status == 2 && again.stderr.contains("--force"), "\(again.stderr)")
            #expect(Self.contents(dir + "/out/sweep.txt") == first)
            #expect(try CLI.run(["sweep", corpus, "--grid", "trajectory.trajectoryLength=10,15", "-o", dir + "/out", "--force"]).status == 0)
            #expect(Self.contents(dir + "/out/sweep.txt") != first)

            let inside = try CLI.run(["sweep", corpus, "--grid", "trajectory.trajectoryLength=8,15", "-o", corpus + "/out"])
            #expect(inside.status == 2 && inside.stderr.contains("inside the corpus"), "\(inside.stderr)")
            #expect(!FileManager.default.fileExists(atPath: corpus + "/out"))

            try FileManager.default.createDirectory(atPath: dir + "/bare", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: dir + "/bare/toss-real.luma", withDestinationPath: "\(Self.recordings)/toss-real.luma")
            // Truth that does not fit its recording fails the sweep before anything runs.
            try FileManager.default.createDirectory(atPath: dir + "/misfit", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: dir + "/misfit/toss-real.luma", withDestinationPath: "\(Self.recordings)/toss-real.luma")
            try FileManager.default.createSymbolicLink(atPath: dir + "/misfit/toss-real.truth.json", withDestinationPath: "\(Self.recordings)/balls-synth.truth.json")
            let misfit = try CLI.run(["sweep", dir + "/misfit", "--grid", "trajectory.trajectoryLength=8,15", "-o", dir + "/out3"])
            #expect(misfit.status == 2 && misfit.stderr.contains("toss-real.truth.json"), "\(misfit.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/out3"))

            let bare = try CLI.run(["sweep", dir + "/bare", "--grid", "trajectory.trajectoryLength=8,15", "-o", dir + "/out2"])
            #expect(bare.status == 2 && bare.stderr.contains("none of its 1 .luma recordings has truth"), "\(bare.stderr)")
        }
    }

    @Test("--keep-logs writes each setting's log of each recording, as a replay of it alone: verify re-runs it; an existing one is replaced only with --force")
    func keptLogs() throws {
        try withScratchFolder("sweep") { dir in
            let corpus = try Self.corpus(in: dir)
            let arguments = ["sweep", corpus, "--grid", "trajectory.trajectoryLength=8,15", "--keep-logs", dir + "/logs"]
            let run = try CLI.run(arguments + ["-o", dir + "/out"])
            #expect(run.status == 0, "\(run.stderr)")
            let names = try FileManager.default.contentsOfDirectory(atPath: dir + "/logs").sorted()
            #expect(names == ["balls-synth.s01.events.jsonl", "balls-synth.s02.events.jsonl", "toss-real.s01.events.jsonl", "toss-real.s02.events.jsonl"])
            let sweep = try JSONParser.parse(String(decoding: try #require(Self.contents(dir + "/out/sweep.json")), as: UTF8.self))
            for (s, setting) in ["s01", "s02"].enumerated() {
                for (r, name) in Self.names.enumerated() {
                    let log = "\(dir)/logs/\(name).\(setting).events.jsonl"
                    #expect(try EventLog.read(log).header.analyzers.map(\.name) == [setting])
                    let verify = try CLI.run(["verify", log, "--recording", "\(corpus)/\(name).luma"])
                    #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
                    let score = try CLI.run(["score", log, "--truth", "\(corpus)/\(name).truth.json", "--json"])
                    let swept = sweep["settings"]?.arrayValue?[s]["recordings"]?.arrayValue?[r]["trajectories"]
                    #expect(try JSONParser.parse(score.stdout)["trajectories"]?["f1"]?.doubleValue == swept?["f1"]?.doubleValue)
                }
            }
            let kept = Self.contents(dir + "/logs/toss-real.s01.events.jsonl")
            let again = try CLI.run(arguments + ["-o", dir + "/out2"])
            // Refused before anything runs: the first log in corpus order is named, no output is written.
            #expect(again.status == 2 && again.stderr.contains("balls-synth.s01.events.jsonl exists (--force replaces it)"), "\(again.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/out2") && Self.contents(dir + "/logs/toss-real.s01.events.jsonl") == kept)
            #expect(try CLI.run(arguments + ["-o", dir + "/out2", "--force"]).status == 0)
        }
    }

    @Test("a recording without truth is named and left out; the text says what was swept, pooled, the best and each recording")
    func leftOutAndText() throws {
        try withScratchFolder("sweep") { dir in
            let corpus = try Self.corpus(in: dir)
            try FileManager.default.createSymbolicLink(atPath: corpus + "/tracking-synth.luma", withDestinationPath: "\(Self.recordings)/tracking-synth.luma")
            let run = try CLI.run(["sweep", corpus, "--grid", "trajectory.trajectoryLength=8,15", "--best", "recall", "-o", dir + "/out"])
            #expect(run.status == 0 && run.stderr.contains("left out for lack of truth beside them: tracking-synth.luma"), "\(run.stderr)")
            let text = String(decoding: try #require(Self.contents(dir + "/out/sweep.txt")), as: UTF8.self)
            #expect(text.contains("left out (no truth beside them): tracking-synth.luma"))
            #expect(text.contains("pooled over the corpus (counts summed, then ratios):"))
            #expect(text.contains("best by recall: s01"), "\(text)")
            #expect(text.contains("\nballs-synth.luma:\n") && text.contains("\ntoss-real.luma:\n"))
            let csv = String(decoding: try #require(Self.contents(dir + "/out/sweep.csv")), as: UTF8.self).split(separator: "\n")
            #expect(csv.first == "setting,recording,trajectoryLength,recall,precision,f1,median_error_px,events,front")
            #expect(csv.count == 1 + 2 + 2 * 2 && csv[1].hasPrefix("s01,*,8,") && csv[3].hasPrefix("s01,balls-synth.luma,8,"))
        }
    }
}
