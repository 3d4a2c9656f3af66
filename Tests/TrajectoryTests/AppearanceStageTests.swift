import LumaTestSupport
import Testing
import LumaImaging
@testable import LumaSynth
import LumaTruth

/// The appearance stage of the second trajectory design (issue 32) measured where the first
/// design fails: `crowded` scenes, each ball with a soft shadow on the wall and the hand that
/// throws it. `DiscFinder` is given a window around each in-flight truth ball, and one around the
/// ball's shadow; a disc reads as a ball when its edge is sharp and it is round all round.
@Suite("The appearance stage on crowded scenes: balls read as balls, their shadows do not")
struct AppearanceStageTests {
    /// The measures that make a disc a ball here: a sharp edge (a shadow's ramps over 0.6–0.9
    /// radii), round, an edge on most rays. Most rays, not nearly all: a ball beside its own
    /// shadow loses the rays that run into it (with 0.85, 345 of the 481 balls found pass, not
    /// 454), so the end of a hand or a body (coverage about 0.75, `DiscFinderTests`) passes too:
    /// telling a hand from a ball is left to the association, where a hand does not fly.
    static func looksLikeBall(_ d: Disc) -> Bool { d.sharpness >= 0.4 && d.roundness >= 0.8 && d.coverage >= 0.7 }

    struct Figures: CustomStringConvertible {
        var balls = 0, ballsFound = 0, ballsLikeBalls = 0
        var shadows = 0, shadowsOnShadow = 0, shadowsLikeBalls = 0
        var description: String {
            "balls: \(ballsFound) of \(balls) found within 1 px, \(ballsLikeBalls) read as balls; "
                + "shadows: \(shadowsOnShadow) of \(shadows) windows found the shadow, \(shadowsLikeBalls) of those read as balls"
        }
    }

    /// Every in-flight point of every `crowded` scene among `seeds` (not within 3 radii of the
    /// frame's edge, not in the first or last frame of its segment, where a hand may hold it).
    static func measure(seeds: [UInt64]) throws -> Figures {
        var figures = Figures()
        let finder = DiscFinder()
        for seed in seeds {
            let settings = QualitySweep.settings(seed: seed).settings
            let scene = try SyntheticScene(kind: .crowded, settings: settings)
            let companions = BallCompanions(settings: settings)
            let (w, h) = (settings.width, settings.height)
            var frames: [Int: [UInt8]] = [:]
            for segment in scene.truth.ballSegments {
                for point in segment.points.dropFirst(3).dropLast(1) {
                    let frame = Int(point[0])
                    let (x, y, r) = (point[1] * Double(w), (1 - point[2]) * Double(h), point[3] * Double(w))
                    guard r >= 3, x > 3 * r, y > 3 * r, x < Double(w) - 3 * r, y < Double(h) - 3 * r else { continue }
                    if frames[frame] == nil { frames[frame] = scene.frame(frame) }
                    let pixels = frames[frame]!
                    func look(_ cx: Double, _ cy: Double, _ radius: Double) -> Disc? {
                        let reach = Int(radius + 3)
                        let window = PixelRect(x0: max(0, Int(cx) - reach / 2), y0: max(0, Int(cy) - reach / 2),
                                               x1: min(w, Int(cx) + reach / 2 + 1), y1: min(h, Int(cy) + reach / 2 + 1))
                        return pixels.withUnsafeBufferPointer {
                            finder.find(in: GrayImage(pixels: $0, width: w, height: h), window: window, radius: max(1, 0.7 * radius)...1.4 * radius)
                        }
                    }
                    figures.balls += 1
                    if let d = look(x, y, r), ((d.x - x) * (d.x - x) + (d.y - y) * (d.y - y)).squareRoot() < 1 {
                        figures.ballsFound += 1
                        if looksLikeBall(d) { figures.ballsLikeBalls += 1 }
                    }
                    let (sx, sy) = (x + companions.shadowOffsetX * r, y + companions.shadowOffsetY * r)
                    let sr = companions.shadowScale * r
                    figures.shadows += 1
                    if let d = look(sx, sy, sr), ((d.x - sx) * (d.x - sx) + (d.y - sy) * (d.y - sy)).squareRoot() < 0.5 * sr {
                        figures.shadowsOnShadow += 1
                        if looksLikeBall(d) { figures.shadowsLikeBalls += 1 }
                    }
                }
            }
        }
        return figures
    }

    /// Floors at the values measured when they were set (2026-11-26: 490 of 584 balls found within
    /// 1 px, 462 read as balls; 7 of the 348 shadows found read as balls), less a small margin. The
    /// misses are mostly balls beside their own shadow. Issue 32's target needs the rest.
    @Test("on the crowded scenes of the quality sweep, four in five balls are found within 1 px and three in four read as balls; of the shadows found, at most 3 % do")
    func crowded() throws {
        let seeds = (1...20 as ClosedRange<UInt64>).filter { QualitySweep.settings(seed: $0).kind == .crowded }
        let f = try Self.measure(seeds: seeds)
        TestFigures.record("appearance stage, crowded scenes \(seeds): \(f)", named: "appearance-crowded.txt")
        #expect(f.balls > 500 && f.shadowsOnShadow > 300, "too few in-flight points to say anything: \(f)")
        #expect(Double(f.ballsFound) >= 0.8 * Double(f.balls), "\(f)")
        #expect(Double(f.ballsLikeBalls) >= 0.75 * Double(f.balls), "\(f)")
        #expect(Double(f.shadowsLikeBalls) <= 0.03 * Double(f.shadowsOnShadow), "\(f)")
    }
}
