import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
@testable import LumaRegression
import Testing
import LumaTestSupport

/// `diff` pairs tracks from the boxes that overlap, not by trying every pair (issue 56, L12): the
/// same pairs as trying every pair, for thousands of live tracks.
@Suite("diff pairs tracks through their overlapping boxes: the same answer as trying every pair")
struct TrackPairingTests {
    /// The candidates of trying every pair, as `diff` made them before (the specification): each
    /// pair judged by the rule one pair is judged by.
    static func everyPair(_ old: [LoggedTrack], _ new: [LoggedTrack], _ comparison: TrackComparison) -> [PairCandidate] {
        old.indices.flatMap { i in new.indices.compactMap { j in comparison.candidate(old, i, new, j) } }
    }

    static func key(_ c: PairCandidate) -> [Double] { [Double(c.i), Double(c.j), c.score, c.closeness, c.sameId ? 1 : 0] }

    /// Tracks of random boxes: some large, some empty, some sharing ids and places, two kinds.
    static func randomTracks(_ random: inout SeededRandom, count: Int) -> [LoggedTrack] {
        (0..<count).map { k in
            var t = LoggedTrack(id: "t\(random.int(in: 0...count / 2))", analyzer: "a", kind: random.int(in: 0...5) == 0 ? "other" : "track")
            let start = random.int(in: 0...30)
            for frame in start..<(start + random.int(in: 1...20)) {
                let size = random.int(in: 0...9) == 0 ? 0 : random.uniform(0.01, random.int(in: 0...9) == 0 ? 0.8 : 0.1)
                let place = random.int(in: 0...3) == 0 ? 0.5 : random.uniform(0, 1)
                t.boxes[frame] = [place, random.uniform(0, 1), size, random.int(in: 0...19) == 0 ? -size : size]
            }
            return t
        }
    }

    @Test("random tracks, large, empty, negative and repeated boxes among them: the same candidates as trying every pair", arguments: 0..<8)
    func sameCandidates(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed), stream: "track pairing")
        let old = Self.randomTracks(&random, count: 150)
        var new = Self.randomTracks(&random, count: 150)
        new += old.prefix(40).map { t in  // some the same, some moved a little
            var u = t
            for (f, b) in t.boxes { u.boxes[f] = [b[0] + random.uniform(-0.01, 0.01), b[1], b[2], b[3]] }
            return u
        }
        let comparison = TrackComparison(tolerances: .init(), pixels: (640, 480))
        let found = comparison.candidates(old, new).map(Self.key).sorted { $0.lexicographicallyPrecedes($1) }
        let expected = Self.everyPair(old, new, comparison).map(Self.key).sorted { $0.lexicographicallyPrecedes($1) }
        #expect(found.count == expected.count && found == expected)
        #expect(expected.count > 40, "the data should make pairs: \(expected.count)")
    }

    /// 2000 tracks live on every frame of a 60-frame log, as round 5's `mkids.py many 2000` makes
    /// them (30 × 30 places, so tracks 900 apart share a box); `rotated` gives each box the next id.
    static func manyTracks(_ count: Int, rotated: Bool, moved: Int? = nil) -> [LoggedTrack] {
        (0..<count).map { k in
            var t = LoggedTrack(id: "t\(rotated ? (k + 1) % count : k)", analyzer: "external", kind: "image")
            for frame in 0..<60 {
                let x = 0.01 + 0.9 * Double(k % 30) / 30 + (k == moved && frame >= 30 ? 0.01 : 0)
                t.boxes[frame] = [x, 0.01 + 0.9 * Double(k / 30 % 30) / 30, 0.02, 0.02]
            }
            return t
        }
    }

    @Test("2000 live tracks compared with themselves under rotated ids are the same; one box moved from frame 30 is one change")
    func thousandsOfTracks() {
        let comparison = TrackComparison(tolerances: .init(), pixels: (640, 480))
        let old = Self.manyTracks(2000, rotated: false)
        #expect(comparison.changes(old, Self.manyTracks(2000, rotated: true)).isEmpty)
        let changes = comparison.changes(old, Self.manyTracks(2000, rotated: false, moved: 1234))
        #expect(changes.count == 1)
        #expect(changes.first?.oldId == "t1234" && changes.first?.newId == "t1234", "\(changes)")
        #expect(changes.first?.details == ["box drifts in 30 frames from frame 30, IoU with the old box down to 0.33"], "\(changes)")
    }
}
