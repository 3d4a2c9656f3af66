import Foundation
import LumaTestSupport
import Testing

/// `sweep` writes only inside its output folder: never through a link, never over a user's files
/// (`--force` included), refusing outputs it could not write before anything runs, and leaving
/// nothing behind when stopped by a signal.
@Suite("Sweep: its outputs stay inside its folder")
struct SweepOutputSafetyTests {
    static let grid = ["--grid", "trajectory.trajectoryLength=8,10"]

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    static func text(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The hidden entries beside the outputs in `dir` (partial and old folders, locks).
    static func leftovers(_ dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }.sorted()
    }

    @Test("a symbolic link at OUT/scores is refused, naming it, with or without --force; nothing is written or replaced where it points")
    func linkAtScoresRefused() throws {
        try withScratchFolder("sweep-out") { dir in
            let corpus = try SweepCommandTests.corpus(in: dir)
            try FileManager.default.createDirectory(atPath: dir + "/mine", withIntermediateDirectories: true)
            try Self.write("{\"my\":\"notes\"}", to: dir + "/mine/toss-real.json")
            try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: dir + "/out/scores", withDestinationPath: "../mine")
            for force in [[], ["--force"]] {
                let run = try CLI.run(["sweep", corpus] + Self.grid + ["-o", dir + "/out"] + force)
                #expect(run.status == 2, "\(force): \(run.stderr)")
                #expect(run.stderr.contains("\(dir)/out/scores: is a symbolic link"), "\(run.stderr)")
                #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/mine") == ["toss-real.json"])
                #expect(Self.text(dir + "/mine/toss-real.json") == "{\"my\":\"notes\"}")
            }
            // A link to nothing: the same refusal, before the sweep runs, in one plain line.
            try FileManager.default.removeItem(atPath: dir + "/out/scores")
            try FileManager.default.createSymbolicLink(atPath: dir + "/out/scores", withDestinationPath: "../nowhere")
            let dangling = try CLI.run(["sweep", corpus] + Self.grid + ["-o", dir + "/out"])
            #expect(dangling.status == 2 && dangling.stderr.contains("out/scores: is a symbolic link"), "\(dangling.stderr)")
            #expect(!dangling.stderr.contains("cannot make the folder"), "\(dangling.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/nowhere"))
        }
    }

    @Test("--force never removes a user's files inside OUT/scores, at any depth: the folder is refused, naming one")
    func forceKeepsFilesInsideScores() throws {
        try withScratchFolder("sweep-out") { dir in
            let corpus = try SweepCommandTests.corpus(in: dir)
            try FileManager.default.createDirectory(atPath: dir + "/out/scores/mydir", withIntermediateDirectories: true)
            try Self.write("precious", to: dir + "/out/scores/mydir/thesis.tex")
            try Self.write("{\"my\":\"notes\"}", to: dir + "/out/scores/notes.json")
            for force in [[], ["--force"]] {
                let run = try CLI.run(["sweep", corpus] + Self.grid + ["-o", dir + "/out"] + force)
                #expect(run.status == 2 && run.stderr.contains("holds files lumatrace did not write (e.g. scores/"), "\(force): \(run.stderr)")
                #expect(Self.text(dir + "/out/scores/mydir/thesis.tex") == "precious")
                #expect(Self.text(dir + "/out/scores/notes.json") == "{\"my\":\"notes\"}")
            }
        }
    }

    @Test("-o naming a symbolic link to a folder is refused, naming the link; the folder it points to is untouched")
    func linkAtOutputRefused() throws {
        try withScratchFolder("sweep-out") { dir in
            let corpus = try SweepCommandTests.corpus(in: dir)
            let first = try CLI.run(["sweep", corpus] + Self.grid + ["-o", dir + "/cc"])
            #expect(first.status == 0, "\(first.stderr)")
            let before = try FileManager.default.contentsOfDirectory(atPath: dir + "/cc").sorted()
            try FileManager.default.createSymbolicLink(atPath: dir + "/cclink", withDestinationPath: "cc")
            let run = try CLI.run(["sweep", corpus] + Self.grid + ["-o", dir + "/cclink", "--force"])
            #expect(run.status == 2 && run.stderr.contains("\(dir)/cclink: is a symbolic link"), "\(run.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/cc").sorted() == before)
            let left = try Self.leftovers(dir)
            #expect(left.isEmpty, "left beside the outputs: \(left)")
        }
    }

    @Test("a truth file that is a FIFO, /dev/zero or a folder is refused at once, naming it, and no staging folder is left")
    func truthThatIsNoFileRefused() throws {
        try withScratchFolder("sweep-out") { dir in
            let corpus = try SweepCommandTests.corpus(in: dir)
            let truth = corpus + "/toss-real.truth.json"
            let cases: [(String, () throws -> Void, String)] = [
                ("a FIFO", { #expect(mkfifo(truth, 0o644) == 0) }, "is a pipe"),
                ("/dev/zero", { try FileManager.default.createSymbolicLink(atPath: truth, withDestinationPath: "/dev/zero") }, "is a character device"),
                ("a folder", { try FileManager.default.createDirectory(atPath: truth, withIntermediateDirectories: false) }, "is a folder"),
            ]
            for (what, make, words) in cases {
                try FileManager.default.removeItem(atPath: truth)
                try make()
                let run = try CLI.run(["sweep", corpus] + Self.grid + ["-o", dir + "/out"], patience: 60)
                #expect(run.status == 2 && run.stderr.contains(truth) && run.stderr.contains(words), "\(what): \(run.stderr)")
                let left = try Self.leftovers(dir)
                #expect(left.isEmpty, "\(what) left \(left)")
                #expect(!FileManager.default.fileExists(atPath: dir + "/out"))
            }
        }
    }

    @Test("outputs that could not be written are refused before the sweep runs: -o '', --keep-logs at -o, --keep-logs a device")
    func unwritableOutputsRefusedFirst() throws {
        try withScratchFolder("sweep-out") { dir in
            let corpus = try SweepCommandTests.corpus(in: dir)
            let empty = try CLI.run(["sweep", corpus] + Self.grid + ["-o", ""])
            #expect(empty.status == 64 && empty.stderr.contains("-o needs the name of the output folder"), "\(empty.stderr)")
            let same = try CLI.run(["sweep", corpus] + Self.grid + ["-o", dir + "/k", "--keep-logs", dir + "/k/"])
            #expect(same.status == 2 && same.stderr.contains("is the output folder -o"), "\(same.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/k"), "the sweep ran before the refusal")
            let device = try CLI.run(["sweep", corpus] + Self.grid + ["-o", dir + "/d", "--keep-logs", "/dev/null"])
            #expect(device.status == 2 && device.stderr.contains("/dev/null: is a character device, not a folder"), "\(device.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/d/scores"), "the sweep ran before the refusal")
            let left = try Self.leftovers(dir)
            #expect(left.isEmpty, "left: \(left)")
        }
    }

    @Test("SIGINT and SIGTERM stop a sweep with one line saying what is kept, status 2, and no staging folder or lock left")
    func signalsStopCleanly() throws {
        try withScratchFolder("sweep-out") { dir in
            let corpus = try SweepCommandTests.corpus(in: dir)
            var onePerReplay = ProcessInfo.processInfo.environment
            onePerReplay["LUMATRACE_MAX_ANALYZERS"] = "1"
            for (sig, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
                let out = "\(dir)/out-\(name)"
                let sweep = try CLI.start(["sweep", corpus] + SweepCommandTests.grid + ["-o", out, "--jobs", "1"], environment: onePerReplay)
                // Once the first recording's scores are stored, the sweep is well under way (outputs staged).
                let stored = AwaitedEvent.wait(while: { sweep.isRunning }) {
                    FileManager.default.fileExists(atPath: out + "/scores/balls-synth.json")
                }
                sweep.signal(sig)
                let ended = try sweep.wait()
                try #require(stored, "the sweep ended before it stored a recording's scores: \(ended)")
                #expect(ended.status == 2 && ended.stderr.contains("sweep stopped by \(name): the scores of 1 recording are kept"), "\(ended)")
                let left = try Self.leftovers(dir)
                #expect(left.isEmpty, "\(name) left \(left)")
                #expect(!FileManager.default.fileExists(atPath: out + "/sweep.txt"))
            }
        }
    }
}
