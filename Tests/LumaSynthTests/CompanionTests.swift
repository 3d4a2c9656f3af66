import Testing
@testable import LumaSynth

/// The `crowded` scene: what real throws bring along besides the ball, drawn but never in the truth.
@Suite("Crowded scenes: each ball's shadow and the hand that throws it")
struct CompanionTests {
    static let seeds: [UInt64] = [1, 2, 3, 4]

    @Test("every flying ball darkens the wall where its shadow falls, and only the balls are in the truth", arguments: seeds)
    func shadowsFollowTheBalls(seed: UInt64) throws {
        let scene = try makeScene(.crowded, seed: seed, width: 640, height: 360, noise: 0)
        let companions = try #require(scene.companions)
        #expect(scene.truth.ballSegments.count >= 3 && scene.truth.objectTracks.isEmpty)
        #expect(scene.truth.notes.contains("Not in the truth: each flying ball's shadow"))
        var checked = 0
        for frame in stride(from: 0, to: 150, by: 10) {
            let t = Double(frame) / 30
            let drawn = scene.frame(frame, layers: [.companions]), wall = scene.frame(frame, layers: [])
            for ball in scene.balls {
                guard case .flying(_, let x, let y) = ball.state(at: t) else { continue }
                // The shadow's centre, where no ball covers it.
                let sx = x + companions.shadowOffsetX * ball.radius, sy = y + companions.shadowOffsetY * ball.radius
                let px = Int(sx), py = Int(sy)
                guard px >= 0, px < 640, py >= 0, py < 360,
                      !scene.balls.contains(where: { other in
                          guard case .flying(_, let ox, let oy) = other.state(at: t) else { return false }
                          return (sx - ox) * (sx - ox) + (sy - oy) * (sy - oy) < (other.radius + 2) * (other.radius + 2)
                      }) else { continue }
                let before = Double(wall[py * 640 + px]), after = Double(drawn[py * 640 + px])
                #expect(after <= before * (1 - 0.8 * companions.shadowDepth) + 1, "frame \(frame) \(ball.id): \(before) → \(after)")
                checked += 1
            }
        }
        #expect(checked >= 5, "only \(checked) shadows were clear of every ball")
    }

    @Test("a hand carries each ball thrown from inside the frame into its throw, and is gone soon after", arguments: seeds)
    func handsThrow(seed: UInt64) throws {
        let scene = try makeScene(.crowded, seed: seed, width: 640, height: 360, noise: 0)
        let companions = try #require(scene.companions)
        var thrown = 0
        for ball in scene.balls {
            guard let arc = ball.arcs.first, arc.start >= 0.3, arc.start + 0.6 < 5, arc.x0 > 0, arc.x0 < 640, arc.y0 > 0, arc.y0 < 360 else { continue }
            // A tenth of a second before release: the hand is there, the ball not yet.
            let before = Int(((arc.start - 0.1) * 30).rounded(.up))
            let t = Double(before) / 30
            let hand = try #require(companions.handCentre(of: ball, at: t, width: 640, height: 360))
            let (hx, hy) = (Int(hand.x), Int(hand.y))
            guard hx >= 0, hx < 640, hy >= 0, hy < 360 else { continue }
            // The hand is one flat grey: the wall's local mean there plus the hand's contrast.
            let drawn = scene.frame(before, layers: [.companions])
            let expected = scene.background.localMean(x: hand.x, y: hand.y) + companions.handContrast
            #expect(abs(Double(drawn[hy * 640 + hx]) - expected) <= 1, "\(ball.id) at frame \(before): \(drawn[hy * 640 + hx]), expected \(expected)")
            // Half a second after release it has stopped and left the picture.
            #expect(companions.handCentre(of: ball, at: arc.start + 0.5, width: 640, height: 360) == nil)
            thrown += 1
        }
        #expect(thrown >= 1, "no ball thrown from inside the frame late enough to see its hand")
    }
}
