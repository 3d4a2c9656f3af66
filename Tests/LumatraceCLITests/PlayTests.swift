import Foundation
import Testing
import LumaTestSupport

/// `lumatrace play LOG`: the log's lines on standard output, paced by the events' times.
@Suite("play: a log's events at the pace of the recording")
struct PlayTests {
    static let log = PackageLayout.root.appendingPathComponent("Recordings/toss-real.events.jsonl").path

    /// The times of the log's events, first and last.
    static func span() throws -> Double {
        let times = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").compactMap { line -> Double? in
            guard let r = line.range(of: #""t":[0-9.]+"#, options: .regularExpression) else { return nil }
            return Double(line[r].dropFirst(4))
        }
        return try #require(times.last) - #require(times.first)
    }

    @Test("the whole log comes out byte for byte, and takes at least its span ÷ --rate")
    func wholeLog() throws {
        let span = try Self.span()
        #expect(span > 1, "the log spans \(span) s: too little to see the pacing")
        var played: ProgramResult?
        let elapsed = try ContinuousClock().measure { played = try CLI.run(["play", Self.log, "--rate", "4"]) }
        let r = try #require(played)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == (try String(contentsOfFile: Self.log, encoding: .utf8)))
        // A lower bound, which a busy machine can only help to meet: play waits for the events' times.
        #expect(elapsed >= .seconds(span / 4 * 0.95), "played \(span) s of events at rate 4 in \(elapsed)")
    }

    @Test("a log from a pipe (the shell's <(…)) plays whole, read once; a truth file and a --set value from a pipe are read too")
    func fromPipes() throws {
        let played = try ProgramRun.run("/bin/bash", ["-c", "\"$0\" play <(cat \"$1\") --rate 1000", CLI.binary, Self.log])
        #expect(played.status == 0, "\(played.stderr)")
        #expect(played.stdout == (try String(contentsOfFile: Self.log, encoding: .utf8)))
        let truth = PackageLayout.root.appendingPathComponent("Recordings/toss-real.truth.json").path
        let scored = try ProgramRun.run("/bin/bash", ["-c", "\"$0\" score \"$1\" --truth <(cat \"$2\")", CLI.binary, Self.log, truth])
        #expect(scored.status == 0, "\(scored.stderr)")
        let direct = try CLI.run(["score", Self.log, "--truth", truth])
        #expect(scored.stdout.replacingOccurrences(of: #"/dev/fd/[0-9]+"#, with: truth, options: .regularExpression) == direct.stdout)
        try withScratchFolder("play") { dir in
            let replayed = try ProgramRun.run("/bin/bash", ["-c", "\"$0\" replay \"$1\" --analyzer differencing --set differencing.threshold=@<(echo 31) -o \"$2\"",
                                                            CLI.binary, PackageLayout.root.appendingPathComponent("Recordings/toss-real.luma").path, "\(dir)/t.events.jsonl"])
            #expect(replayed.status == 0, "\(replayed.stderr)")
            #expect(try String(contentsOfFile: "\(dir)/t.events.jsonl", encoding: .utf8).contains(#""threshold":31"#))
        }
    }

    @Test("--from/--to play a stretch (frames or times): the header, the events in it, no footer")
    func stretch() throws {
        let lines = try String(contentsOfFile: Self.log, encoding: .utf8).split(separator: "\n").map(String.init)
        let byFrames = try CLI.run(["play", Self.log, "--rate", "100", "--from", "30", "--to", "40"])
        #expect(byFrames.status == 0, "\(byFrames.stderr)")
        let expected = [lines[0]] + lines.filter { line in
            guard let r = line.range(of: #"^\{"frame":[0-9]+"#, options: .regularExpression), let f = Int(line[r].dropFirst(9)) else { return false }
            return (30...40).contains(f)
        }
        #expect(expected.count > 2)
        #expect(byFrames.stdout.split(separator: "\n").map(String.init) == expected)
        let byTime = try CLI.run(["play", Self.log, "--rate", "100", "--from", "0.5s", "--to", "1s"])
        #expect(byTime.status == 0)
        #expect(!byTime.stdout.contains(#"{"end""#))
    }

    @Test("--loop plays the events again and again until stopped; the header once")
    func loop() throws {
        let out = Scratch.path("loop.jsonl")
        let p = try CLI.start(["play", Self.log, "--rate", "200", "--loop"], stdout: .file(out))
        // Stopped once the first event has come out a second time (the loop came round), not
        // after a time that a busy machine may not give it.
        let events = try String(contentsOfFile: Self.log, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix(#"{"frame""#) }
        let cameRound = AwaitedEvent.wait(while: { p.isRunning }) {
            let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").filter { $0 == events[0] }.count >= 2
        }
        p.signal(SIGKILL)  // what it wrote is all the test reads
        let ended = try p.wait()
        #expect(cameRound, "play --loop ended (\(ended)) before playing the first event again")
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix(#"{"format""#) }.count == 1)
        #expect(lines.filter { $0 == events[0] }.count >= 2, "the first event came out \(lines.filter { $0 == events[0] }.count) times")
    }

    @Test("an impossible --rate is refused naming it", arguments: ["0", "-1", "nan", "1e9"])
    func badRate(_ rate: String) throws {
        let r = try CLI.run(["play", Self.log, "--rate", rate])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--rate"), "\(r.stderr)")
    }
}
