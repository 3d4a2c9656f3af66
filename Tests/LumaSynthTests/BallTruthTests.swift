import LumaSynth
import Testing

@Suite("Ball truth: parabolic segments split at bounces and exits")
struct BallTruthTests {
    static let seeds: [UInt64] = Array(1...12)

    @Test("Every scene with balls throws 3–6 visible balls of varied size and contrast", arguments: seeds)
    func cast(seed: UInt64) throws {
        let scene = try makeScene(.balls, seed: seed, width: 640, height: 360)
        let balls = scene.contents.balls
        #expect((3...6).contains(balls.count))
        for ball in balls {
            #expect(ball.radius / 640 >= 0.005 && ball.radius / 640 <= 0.025)
            #expect(scene.truth.ballSegments.contains { $0.ball == ball.id }, "\(ball.id) is seen")
        }
        #expect(balls.contains { $0.contrast > 0 } && balls.contains { $0.contrast < 0 }, "brighter and darker balls")
        #expect(balls.contains { abs($0.contrast) >= 20 && abs($0.contrast) <= 30 }, "a low-contrast ball")
        #expect(scene.truth.objectTracks.isEmpty)
    }

    @Test("Each scene has a visible bounce, a visible exit, and balls in the air together", arguments: seeds)
    func requiredEvents(seed: UInt64) throws {
        let truth = try makeScene(.balls, seed: seed).truth
        #expect(truth.ballSegments.contains { $0.end == "bounce" })
        #expect(truth.ballSegments.contains { $0.end == "exit" })
        var perFrame: [Int: Int] = [:]
        for segment in truth.ballSegments { for f in segment.frames { perFrame[f, default: 0] += 1 } }
        #expect((perFrame.values.max() ?? 0) >= 2)
    }

    @Test("Every segment has at least 8 points, in consecutive frames, with the centre inside the frame",
          arguments: seeds)
    func segmentShape(seed: UInt64) throws {
        let scene = try makeScene(.mixed, seed: seed)
        for segment in scene.truth.ballSegments {
            #expect(segment.points.count >= 8, "\(segment.id)")
            #expect(segment.id.hasPrefix(segment.ball + "."))
            #expect(["bounce", "exit", "end"].contains(segment.end))
            let frames = segment.frames
            #expect(zip(frames, frames.dropFirst()).allSatisfy { $1 == $0 + 1 }, "\(segment.id) has no gaps")
            for p in segment.points {
                #expect(p.count == 4)
                #expect(p[1] >= 0 && p[1] < 1 && p[2] > 0 && p[2] <= 1, "\(segment.id) frame \(p[0]) inside")
            }
        }
        // Segments of one ball never share a frame, and are numbered in time order from 1.
        for ball in scene.contents.balls {
            let segments = scene.truth.ballSegments.filter { $0.ball == ball.id }
            let frames = segments.flatMap(\.frames)
            #expect(frames == frames.sorted() && Set(frames).count == frames.count)
            #expect(segments.map(\.id) == (1...segments.count).map { "\(ball.id).\($0)" })
        }
    }

    @Test("Within a segment the centre moves with constant acceleration: gravity down, none sideways",
          arguments: seeds)
    func parabolic(seed: UInt64) throws {
        let scene = try makeScene(.balls, seed: seed)
        let fps = Double(scene.settings.framesPerSecond)
        guard let gravity = scene.contents.gravity else {
            Issue.record("no gravity")
            return
        }
        // In normalized lower-left coordinates y decreases under gravity.
        let expected = -gravity / (fps * fps) / Double(scene.height)
        for segment in scene.truth.ballSegments {
            let p = segment.points
            for i in 1..<(p.count - 1) {
                let ax = p[i + 1][1] - 2 * p[i][1] + p[i - 1][1]
                let ay = p[i + 1][2] - 2 * p[i][2] + p[i - 1][2]
                #expect(abs(ax) < 5e-6, "\(segment.id): no horizontal acceleration")
                #expect(abs(ay - expected) < 5e-6, "\(segment.id): gravity \(ay) vs \(expected)")
            }
            #expect(Set(p.map { $0[3] }).count == 1, "radius is constant")
        }
    }

    @Test("A bounce ends a segment on the floor line; the same ball's next segment rises from there",
          arguments: seeds)
    func bounceSplitsSegments(seed: UInt64) throws {
        let scene = try makeScene(.balls, seed: seed)
        let segments = scene.truth.ballSegments
        let floorY = 1 - scene.contents.floorLine / Double(scene.height)  // normalized, lower-left
        var bounces = 0
        for (i, segment) in segments.enumerated() where segment.end == "bounce" {
            bounces += 1
            let next = try #require(i + 1 < segments.count ? segments[i + 1] : nil)
            #expect(next.ball == segment.ball, "the next segment belongs to the same ball")
            let last = try #require(segment.points.last), before = segment.points[segment.points.count - 2]
            let first = try #require(next.points.first)
            #expect(first[0] == last[0] + 1, "the flight continues in the next frame")
            #expect(last[2] < before[2], "falling before the bounce")
            if next.points.count > 1 { #expect(next.points[1][2] > first[2], "rising after it") }
            // The ball's lowest point is near the floor line on both sides of the bounce.
            let radiusY = last[3] * Double(scene.width) / Double(scene.height)
            let step = abs(last[2] - before[2]) + 0.01
            #expect(abs(last[2] - radiusY - floorY) < step, "\(segment.id) lands on the floor line")
            #expect(abs(first[2] - radiusY - floorY) < step + 0.01, "\(next.id) starts from the floor line")
        }
        #expect(bounces > 0)
    }

    @Test("An exit ends a segment: extrapolating one frame puts the centre outside the frame",
          arguments: seeds)
    func exitEndsSegments(seed: UInt64) throws {
        let scene = try makeScene(.balls, seed: seed)
        let fps = Double(scene.settings.framesPerSecond)
        let gravity = try #require(scene.contents.gravity)
        let ay = -gravity / (fps * fps) / Double(scene.height)
        var exits = 0
        for segment in scene.truth.ballSegments where segment.end == "exit" {
            exits += 1
            let p = segment.points
            let a = p[p.count - 2], b = p[p.count - 1]
            let nextX = 2 * b[1] - a[1]
            let nextY = 2 * b[2] - a[2] + ay
            #expect(nextX < 0 || nextX >= 1 || nextY <= 0 || nextY > 1, "\(segment.id) leaves the frame")
            #expect(Int(b[0]) < scene.settings.frameCount - 1)
        }
        #expect(exits > 0)
    }

    @Test("A segment that reaches the last frame ends with \"end\"")
    func recordingEnd() throws {
        // Cut a recording short so that balls are still flying at its last frame.
        for seed in BallTruthTests.seeds {
            let full = try makeScene(.balls, seed: seed)
            let busiest = Dictionary(grouping: full.truth.ballSegments.flatMap(\.frames), by: { $0 })
                .max { $0.value.count < $1.value.count }?.key ?? 60
            let short = try makeScene(.balls, seed: seed, frames: busiest + 1)
            for segment in short.truth.ballSegments where segment.frames.last == busiest {
                #expect(segment.end == "end")
            }
        }
    }

    @Test("A ball that goes over the top edge exits, and comes back as a new segment of the same ball")
    func overTheTop() throws {
        var seen = 0
        for seed in BallTruthTests.seeds {
            let segments = try makeScene(.balls, seed: seed).truth.ballSegments
            for (i, segment) in segments.enumerated() where segment.end == "exit" {
                guard let last = segment.points.last, last[2] > 0.85, i + 1 < segments.count else { continue }
                let next = segments[i + 1]
                guard next.ball == segment.ball, let first = next.points.first else { continue }
                #expect(first[2] > 0.85, "\(next.id) comes back in through the top")
                #expect(first[0] > last[0] + 1, "out of the frame for a while")
                seen += 1
            }
        }
        #expect(seen > 0)
    }

    @Test("A segment that ends before the recording does without a bounce or exit: the ball came to rest on the floor",
          arguments: seeds)
    func comesToRest(seed: UInt64) throws {
        let scene = try makeScene(.balls, seed: seed)
        let floorY = 1 - scene.contents.floorLine / Double(scene.height)
        for segment in scene.truth.ballSegments where segment.end == "end" {
            let last = try #require(segment.points.last)
            guard Int(last[0]) < scene.settings.frameCount - 1 else { continue }
            let before = segment.points[segment.points.count - 2]
            let radiusY = last[3] * Double(scene.width) / Double(scene.height)
            #expect(abs(last[2] - radiusY - floorY) < abs(last[2] - before[2]) + 0.01, "\(segment.id) rests on the floor")
            #expect(!scene.truth.ballSegments.contains { $0.ball == segment.ball && ($0.points.first?[0] ?? 0) > last[0] })
        }
    }
}
