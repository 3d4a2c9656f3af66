import LumaSynth
import Testing

@Suite("Tracking truth: smooth boxes, a scale change, an occlusion and a crossing")
struct TrackingTruthTests {
    static let seeds: [UInt64] = Array(1...10)

    /// Normalized [x, y, w, h] (lower-left corner) overlap area.
    static func overlap(_ a: [Double], _ b: [Double]) -> Double {
        let w = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
        let h = min(a[2] + a[4], b[2] + b[4]) - max(a[2], b[2])
        return w > 0 && h > 0 ? w * h : 0
    }

    @Test("3–4 objects with a box in every frame, inside the frame, moving smoothly", arguments: seeds)
    func boxes(seed: UInt64) throws {
        let scene = try makeScene(.tracking, seed: seed)
        let tracks = scene.truth.objectTracks
        #expect((3...4).contains(tracks.count))
        #expect(tracks.map(\.id) == (1...tracks.count).map { "object\($0)" })
        #expect(scene.truth.ballSegments.isEmpty)
        for track in tracks {
            #expect(track.points.map { Int($0[0]) } == Array(0..<150))
            for p in track.points {
                #expect(p[1] >= 0 && p[2] >= 0 && p[1] + p[3] <= 1 && p[2] + p[4] <= 1, "\(track.id) inside the frame")
            }
            for (a, b) in zip(track.points, track.points.dropFirst()) {
                let dx = (b[1] + b[3] / 2) - (a[1] + a[3] / 2), dy = (b[2] + b[4] / 2) - (a[2] + a[4] / 2)
                #expect((dx * dx + dy * dy).squareRoot() < 0.02, "\(track.id) moves at most 2% of the frame per frame")
            }
        }
    }

    @Test("One object grows to about 1.6 times its size and shrinks back", arguments: seeds)
    func scaleChange(seed: UInt64) throws {
        let scene = try makeScene(.tracking, seed: seed)
        let ratios = scene.truth.objectTracks.map { track -> (Double, Double) in
            let widths = track.points.map { $0[3] }
            let heights = track.points.map { $0[4] }
            return ((widths.max() ?? 0) / (widths.min() ?? 1), (heights.max() ?? 0) / (heights.min() ?? 1))
        }
        #expect(ratios.contains { $0.0 > 1.5 && $0.0 < 1.7 && abs($0.0 - $0.1) < 0.01 }, "\(ratios)")
        let growing = try #require(scene.truth.objectTracks.first { track in
            (track.points.map { $0[3] }.max() ?? 0) > 1.5 * (track.points.map { $0[3] }.min() ?? 1)
        })
        let first = try #require(growing.points.first), last = try #require(growing.points.last)
        #expect(abs(first[3] - last[3]) < 1e-6, "back to its size by the end")
        #expect(scene.contents.objects.contains { $0.maximumScale > 1.5 })
    }

    @Test("One object passes behind the post; its occluded frames are those more than 30% hidden",
          arguments: seeds)
    func occludedByPost(seed: UInt64) throws {
        let scene = try makeScene(.tracking, seed: seed)
        let post = try #require(scene.contents.post)
        // The post in normalized lower-left [x, y, w, h].
        let postBox = [0, post.left / 320, 1 - post.bottom / 180, post.width / 320, post.bottom / 180]
        var sawPostOcclusion = false
        for track in scene.truth.objectTracks {
            let occluded = Set(track.occluded ?? [])
            #expect(track.occluded.map { $0 == $0.sorted() && !$0.isEmpty } ?? true)
            for p in track.points {
                let hiddenByPost = Self.overlap(p, postBox) / (p[3] * p[4])
                if hiddenByPost > 0.32 {
                    #expect(occluded.contains(Int(p[0])), "\(track.id) frame \(p[0]) is \(hiddenByPost) behind the post")
                    sawPostOcclusion = true
                }
            }
            if !occluded.isEmpty { #expect(occluded.count < 150, "\(track.id) is also seen unoccluded") }
        }
        #expect(sawPostOcclusion)
    }

    @Test("Two objects cross; the one behind is listed as occluded while mostly covered", arguments: seeds)
    func crossing(seed: UInt64) throws {
        let scene = try makeScene(.tracking, seed: seed)
        let tracks = scene.truth.objectTracks
        let depth = Dictionary(uniqueKeysWithValues: scene.contents.objects.map { ($0.id, $0.depth) })
        var crossed = false
        for a in tracks {
            for b in tracks where (depth[a.id] ?? 0) > (depth[b.id] ?? 0) {
                for (p, q) in zip(a.points, b.points) {
                    let covered = Self.overlap(p, q) / (q[3] * q[4])
                    if covered > 0.35 {
                        crossed = true
                        #expect(b.occluded?.contains(Int(q[0])) == true, "\(b.id) behind \(a.id) at frame \(q[0])")
                    }
                }
            }
        }
        #expect(crossed)
    }
}
