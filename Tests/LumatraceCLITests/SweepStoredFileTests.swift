import Foundation
import LumaAnalysis
import LumaEngine
import LumaRegression
import LumaTestSupport
import Testing
import TrajectoryAnalyzer

/// A sweep's files on disk (stored scores, shard parts) are written by the project's one JSON
/// writer with exact numbers: what is read back is what was scored, bit for bit, and the files
/// earlier versions wrote with Foundation's encoder still read.
@Suite("Sweep: stored files, numbers exact")
struct SweepStoredFileTests {
    static let awkward: [Double] = [-0.0, 5e-324, 1e-300, 0.1, 1.0 / 3, 0.30000000000000004, 4.35, 9_007_199_254_740_993, 1e300]

    static func definition() throws -> SweepDefinition {
        SweepDefinition(try SweepGrid(name: "trajectory", analyzer: AnalyzerDescriptor(TrajectoryAnalyzer.self),
                                      grid: ["trajectory.trajectoryLength=8,15"], fixed: []))
    }

    static let identity = SweepRecordingIdentity(name: "toss.luma", frames: 120, framesSHA256: String(repeating: "a", count: 64),
                                                 truthSHA256: String(repeating: "b", count: 64))

    static let scores = [
        SweepScore(events: 12, trajectories: .init(segments: 3, found: 2, reported: 4, correct: 2, pointErrors: awkward),
                   tracking: .init(frames: 1 << 40, successAUC: 1.0 / 3, precision20: 0.1, losses: 0)),
        SweepScore(events: 0),
    ]

    static func bits(_ scores: [SweepScore]) -> [[UInt64]] {
        scores.map { s in (s.trajectories?.pointErrors ?? []).map(\.bitPattern) + [s.tracking?.successAUC, s.tracking?.precision20].compactMap { $0?.bitPattern } }
    }

    /// Runs `body` with ``scores`` stored as a sweep stores them, and the sweep's definition.
    static func withStoredScores(_ body: (SweepResume, SweepDefinition) throws -> Void) throws {
        try withScratchFolder("sweep-stored") { dir in
            let resume = SweepResume(output: dir + "/out")
            let definition = try definition()
            try resume.store(scores, of: identity, sweep: definition)
            try body(resume, definition)
        }
    }

    @Test("stored scores read back bit for bit: -0.0, 5e-324, 1e-300, 0.1, 1/3 and 2^53 among the point errors")
    func storedScoresExact() throws {
        try Self.withStoredScores { resume, definition in
            let back = try #require(try resume.stored(definition, recordings: [Self.identity])[0])
            #expect(back == Self.scores)
            #expect(Self.bits(back) == Self.bits(Self.scores))
            let text = try String(contentsOfFile: resume.path(of: Self.identity), encoding: .utf8)
            #expect(text.hasPrefix(#"{"format":"lumatrace.sweep-scores","version":1,"sweep":{"#), "\(text.prefix(80))")
            #expect(text.contains("[-0.0,5e-324,1e-300,0.1,0.3333333333333333,0.30000000000000004,4.35,9007199254740992.0,1e+300]"), "\(text)")
            #expect(text.hasSuffix("}\n") && text.filter { $0 == "\n" }.count == 1)
        }
    }

    @Test("stored scores written by an earlier lumatrace (Foundation's encoder, keys sorted) read as they were written")
    func earlierFilesRead() throws {
        try Self.withStoredScores { resume, definition in
            // The file as an earlier lumatrace wrote it: the same value through Foundation's encoder, keys sorted.
            let path = resume.path(of: Self.identity)
            let stored = try JSONDecoder().decode(SweepResume.Stored.self, from: try #require(FileManager.default.contents(atPath: path)))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try (encoder.encode(stored) + Data([0x0A])).write(to: URL(fileURLWithPath: path))
            #expect(String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self).hasPrefix(#"{"format":"lumatrace.sweep-scores","recording":"#))
            let earlier = try #require(try resume.stored(definition, recordings: [Self.identity])[0])
            #expect(earlier == (try JSONDecoder().decode(SweepResume.Stored.self, from: encoder.encode(stored))).scores)
            #expect(earlier == Self.scores)
        }
    }

    @Test("a shard's part reads back equal, its numbers exact, and the same part gives the same bytes")
    func partExact() throws {
        try withScratchFolder("sweep-stored") { dir in
            let definition = try Self.definition()
            let part = SweepPart(sweep: definition, shard: 0, shards: 1, corpus: [Self.identity], withoutTruth: ["other.luma"],
                                 units: [SweepUnitScores(recording: 0, pass: 0, scores: Self.scores)])
            let bytes = try part.bytes()
            #expect(try part.bytes() == bytes)
            try Data(bytes).write(to: URL(fileURLWithPath: dir + "/part.json"))
            let back = try SweepPart.read(dir + "/part.json")
            #expect(back == part)
            #expect(Self.bits(back.units[0].scores) == Self.bits(Self.scores))
        }
    }

    @Test("stored scores and parts with impossible counts are refused naming the setting and the rule: found above segments, correct above reported, errors not one per point, a negative error")
    func impossibleCounts() throws {
        let good = SweepScore.Trajectories(segments: 3, found: 2, reported: 4, correct: 2, pointErrors: [0.5, 1, 2])
        var cases: [(SweepScore.Trajectories, SweepScore.Implausibility)] = []
        var t = good; t.found = 5; cases.append((t, .foundAboveSegments(found: 5, segments: 3)))
        t = good; t.correct = 7; cases.append((t, .correctAboveReported(correct: 7, reported: 4)))
        t = good; t.reported = 0; t.correct = 0; t.pointErrors = []; cases.append((t, .foundAboveCorrect(found: 2, correct: 0)))
        t = good; t.pointErrors = []; cases.append((t, .pointErrorCount(count: 0, correct: 2, frames: 120)))
        t = good; t.pointErrors = [Double](repeating: 0.5, count: 241); cases.append((t, .pointErrorCount(count: 241, correct: 2, frames: 120)))
        t = good; t.pointErrors = [-5, 0.5, 1]; cases.append((t, .pointError(-5)))
        t = good; t.segments = -3; cases.append((t, .countOutside(field: "segments", value: -3, maximum: 1 << 40)))
        for (bad, why) in cases {
            try withScratchFolder("sweep-stored") { dir in
                let resume = SweepResume(output: dir + "/out")
                let definition = try Self.definition()
                try resume.store([SweepScore(events: 4, trajectories: bad), SweepScore(events: 4, trajectories: good)], of: Self.identity, sweep: definition)
                let refusal = #expect(throws: SweepFileError.self, "\(why)") { try resume.stored(definition, recordings: [Self.identity]) }
                #expect(refusal?.problem == .impossible(.implausibleScore(setting: "s01", recording: "toss.luma", why)), "\(String(describing: refusal))")
                #expect(refusal?.description.contains("the score of setting s01 on toss.luma: \(why)") == true, "\(String(describing: refusal))")

                let part = SweepPart(sweep: definition, shard: 0, shards: 1, corpus: [Self.identity], withoutTruth: [],
                                     units: [SweepUnitScores(recording: 0, pass: 0, scores: [SweepScore(events: 1, trajectories: good), SweepScore(events: 1, trajectories: bad)])])
                try Data(try part.bytes()).write(to: URL(fileURLWithPath: dir + "/part.json"))
                let partRefusal = #expect(throws: SweepFileError.self, "\(why)") { try SweepPart.read(dir + "/part.json") }
                #expect(partRefusal?.problem == .impossible(.implausibleScore(setting: "s02", recording: "toss.luma", why)), "\(String(describing: partRefusal))")
            }
        }
        let tracking = SweepScore(events: 1, tracking: .init(frames: 10, successAUC: 1.5, precision20: 0.5, losses: 0))
        #expect(tracking.implausibility(frames: 10) == .numberOutside(field: "successAUC", value: 1.5))
        #expect(SweepScore(events: 1, trajectories: good).implausibility(frames: 120) == nil)
    }

    @Test("a part naming a recording twice, giving one negative frames, or a pass fewer scores than settings is refused saying so")
    func partShapes() throws {
        try withScratchFolder("sweep-stored") { dir in
            let definition = try Self.definition()
            var other = Self.identity
            other.frames = -5
            let score = SweepScore(events: 1)
            for (corpus, units, why) in [([Self.identity, Self.identity], [SweepUnitScores](), SweepFileError.Impossibility.nameTwice("toss.luma")),
                                         ([other], [], .framesOutside(name: "toss.luma", frames: -5)),
                                         ([Self.identity], [SweepUnitScores(recording: 0, pass: 0, scores: [score])],
                                          .unitScores(recording: "toss.luma", pass: 0, count: 1, settings: 2))] {
                let part = SweepPart(sweep: definition, shard: 0, shards: 1, corpus: corpus, withoutTruth: [], units: units)
                try Data(try part.bytes()).write(to: URL(fileURLWithPath: dir + "/part.json"))
                let refusal = #expect(throws: SweepFileError.self, "\(why)") { try SweepPart.read(dir + "/part.json") }
                #expect(refusal?.problem == .impossible(why), "\(String(describing: refusal))")
            }
            // Stored scores whose settings were edited name the first setting that differs.
            var edited = definition
            edited.settings[0].id = "s09"
            let difference = edited.difference(from: definition)
            #expect(difference?.field == "setting 1" && difference?.mine == "s09 trajectoryLength=8" && difference?.theirs == "s01 trajectoryLength=8",
                    "\(String(describing: difference))")
        }
    }
}
