import Foundation
import LumaImaging
import LumaTestSupport
import Testing
@testable import LumaSynth
import LumaTruth
@testable import TrajectoryAnalyzer

/// The window design's appearance cues (issue 57: shadows are not balls), each on its own: a ball's
/// disc against its soft shadow's (size, edge across the motion), a path that is a copy of another
/// (lockstep), and their combination per clip, where no cue decides alone.
@Suite("Appearance cues: a ball is told from its shadow by size, edge, polarity and lockstep, combined per clip")
struct AppearanceCueTests {
    /// A 96×96 wall of grey 120 with a disc of radius `radius` centred at (48, 48), `level` inside,
    /// whose edge ramps linearly over `blur` pixels (0: anti-aliased over one pixel), blurred along
    /// x over `streak` pixels (a ball's motion blur).
    static func disc(radius: Double, level: Double, blur: Double, streak: Double = 0) -> [UInt8] {
        let size = 96
        var pixels = [UInt8](repeating: 120, count: size * size)
        let taps = max(1, Int(streak))
        for y in 0..<size {
            for x in 0..<size {
                var sum = 0.0
                for t in 0..<taps {
                    let sx = Double(x) + 0.5 - 48 + (Double(t) - Double(taps - 1) / 2), sy = Double(y) + 0.5 - 48
                    let d = (sx * sx + sy * sy).squareRoot()
                    let width = max(1, blur)
                    let inside = min(1, max(0, (radius + width / 2 - d) / width))
                    sum += 120 + (level - 120) * inside
                }
                pixels[y * size + x] = UInt8(max(0, min(255, (sum / Double(taps)).rounded())))
            }
        }
        return pixels
    }

    static func profile(_ pixels: [UInt8], candidateRadius: Double) -> DiscProfile {
        pixels.withUnsafeBufferPointer { DiscProfile.measure(GrayImage(pixels: $0, width: 96, height: 96), x: 48, y: 48, radius: candidateRadius) }
    }

    @Test("a ball's disc has a sharp edge at its radius; its soft shadow's is larger by its scale and several times wider, found at the ball's scale")
    func ballAndShadowProfiles() {
        let ball = Self.profile(Self.disc(radius: 10, level: 200, blur: 0), candidateRadius: 10)
        // The crowded scenes' shadow: 1.45 of the ball's radius, edge blurred over 0.75 of it, 30 % darker.
        let shadow = Self.profile(Self.disc(radius: 14.5, level: 84, blur: 7.5), candidateRadius: 10)
        for axis in 0..<4 {
            #expect(abs(ball.radius[axis] - 10) <= 1, "ball radius along axis \(axis): \(ball.radius[axis])")
            #expect(ball.edgeWidth[axis] <= 2, "ball edge along axis \(axis): \(ball.edgeWidth[axis]) px")
            #expect(abs(shadow.radius[axis] - 14.5) <= 2, "shadow radius along axis \(axis): \(shadow.radius[axis])")
            #expect(shadow.edgeWidth[axis] >= 3 * ball.edgeWidth[axis], "shadow edge \(shadow.edgeWidth[axis]) px, ball's \(ball.edgeWidth[axis]) px")
        }
    }

    @Test("the edge is measured across the motion: a ball blurred along its path keeps a sharp edge across it")
    func edgeAcrossMotion() {
        let moving = Self.profile(Self.disc(radius: 10, level: 200, blur: 0, streak: 9), candidateRadius: 10)
        let across = DiscProfile.axis(across: 300, 0)
        #expect(across == 2, "the axis across a horizontal motion is the vertical one")
        #expect(DiscProfile.axis(across: 0, -300) == 0)
        #expect(moving.edgeWidth[across] <= 2, "across the motion: \(moving.edgeWidth[across]) px")
        #expect(moving.edgeWidth[0] >= 2 * moving.edgeWidth[across], "along it: \(moving.edgeWidth[0]) px, across \(moving.edgeWidth[across]) px")
    }

    /// A flight of 20 points from (x0, y0) at velocity (vx, vy) px/frame under gravity g px/frame².
    static func flight(serial: Int, x0: Double, y0: Double, vx: Double, vy: Double, scale: Double = 1, g: Double = 1.2) -> Flight {
        let points = (0..<20).map { k -> TrackPoint in
            let t = Double(k)
            return TrackPoint(frame: k, time: t / 30, x: x0 + scale * vx * t, y: y0 + scale * (vy * t + g * t * t / 2), radius: 8)
        }
        return Flight(serial: serial, points: points, lumaRatios: [Double](repeating: 1.3, count: 20), path: Parabola(fitting: points[...], gravity: nil)!)
    }

    @Test("a path that is a scaled, shifted copy of another over the same frames flies in lockstep with it; a ball thrown alike beside it does not")
    func lockstep() {
        let ball = Self.flight(serial: 0, x0: 100, y0: 300, vx: 6, vy: -14)
        let shadow = Self.flight(serial: 1, x0: 100 + 12, y0: 300 + 16, vx: 6, vy: -14, scale: 1.1)
        let other = Self.flight(serial: 2, x0: 130, y0: 300, vx: 4, vy: -13)
        #expect(PathAppearance.lockstep(shadow, among: [ball, other], radius: 8) == [0])
        #expect(PathAppearance.lockstep(ball, among: [shadow], radius: 8) == [1], "lockstep is mutual: the appearance says which is the copy")
        #expect(PathAppearance.lockstep(other, among: [ball], radius: 8).isEmpty)
        let far = Self.flight(serial: 3, x0: 100 + 200, y0: 300, vx: 6, vy: -14)
        #expect(PathAppearance.lockstep(far, among: [ball], radius: 8).isEmpty, "25 radii away is another ball thrown alike")
    }

    static func path(polarity: Double, radius: Double, edge: Double) -> PathAppearance {
        PathAppearance(polarity: polarity, radius: radius, edgeWidth: edge, profiled: 10)
    }

    /// The balls fit their flights a little better than their shadows (the calibration's premise:
    /// the best-fitting third is mostly balls).
    @Test("calibrated on a clip of bright balls and their shadows, a shadow shows two cues and falls below half; a dark ball shows one and stays above")
    func combination() throws {
        let balls = (0..<4).map { k in (geometric: 0.9 - 0.01 * Double(k), appearance: Self.path(polarity: 0.3, radius: 10, edge: 1.5)) }
        let shadows = (0..<4).map { k in (geometric: 0.8 - 0.01 * Double(k), appearance: Self.path(polarity: -0.2, radius: 14.5, edge: 6)) }
        let clip = try #require(ClipAppearance(balls + shadows))
        #expect(clip.radius == 10, "the balls' radius, not the shadows'")
        #expect(clip.edgeWidth == 1.5)
        let shadow = clip.evidence(Self.path(polarity: -0.2, radius: 14.5, edge: 6))
        #expect(shadow.size >= 0.7 && shadow.edge == 1, "\(shadow)")
        #expect(ClipAppearance.factor(shadow) < 0.5, "\(shadow): \(ClipAppearance.factor(shadow))")
        let ball = clip.evidence(Self.path(polarity: 0.25, radius: 10.5, edge: 1.8))
        #expect(ClipAppearance.factor(ball) == 1, "\(ball)")
        let darkBall = clip.evidence(Self.path(polarity: -0.3, radius: 10, edge: 1.5))
        #expect(darkBall.polarity > 0.9 && darkBall.size == 0 && darkBall.edge == 0, "\(darkBall)")
        #expect(ClipAppearance.factor(darkBall) >= 0.5, "one cue alone does not decide at the operating threshold: \(ClipAppearance.factor(darkBall))")
    }

    /// The free throw's regression: its balls, nearer the camera than the clip's small false paths,
    /// measure 1.4–2.4 times the clip's ball radius with the same sharp edge.
    @Test("a larger disc with a sharp edge and no ball-sized disc flying beside it is a nearer ball: its size is no evidence; beside a ball, or with a soft edge, it is")
    func sizeNeedsAReason() throws {
        let clip = try #require(ClipAppearance((0..<4).map { k in (geometric: 0.9 - 0.01 * Double(k), appearance: Self.path(polarity: 0.3, radius: 10, edge: 1.5)) }))
        let nearer = Self.path(polarity: 0.3, radius: 15, edge: 1.5)
        #expect(clip.evidence(nearer, besideBall: false).size == 0)
        #expect(ClipAppearance.factor(clip.evidence(nearer, besideBall: false)) == 1)
        #expect(clip.evidence(nearer, besideBall: true).size == 1, "a shadow beside its ball")
        let soft = Self.path(polarity: 0.3, radius: 15, edge: 4)
        #expect(clip.evidence(soft, besideBall: false).size == 1 && clip.evidence(soft, besideBall: false).edge > 0, "a penumbra or a blurred hand")
        #expect(clip.isBallSized(12) && !clip.isBallSized(14))
    }

    @Test("the clip is not calibrated from fewer than three paths")
    func tooFewPaths() {
        #expect(ClipAppearance([(0.9, Self.path(polarity: 0.3, radius: 10, edge: 1.5)), (0.8, Self.path(polarity: 0.3, radius: 10, edge: 1.5))]) == nil)
    }
}

/// Each cue's separation of balls from shadows and other false paths, on the shared real clips and
/// the synthetic sweep's `crowded` scenes (`scripts/trajectory-cues`; the figures in docs/analyzers.md).
@Suite("Appearance cues against truth (measurement; scripts/trajectory-cues)",
       .enabled(if: ProcessInfo.processInfo.environment["TRAJECTORY_CUES"] != nil, "set TRAJECTORY_CUES=1 (scripts/trajectory-cues)"))
struct AppearanceCueMeasurement {
    @Test("shared real clips: each cue's separation per clip", .clipCorpus)
    func realClips() throws {
        let data = try RealClip.corpus()
        var all = CueFigures(), lines: [String] = []
        for clip in ["juggling-3ball-cascade", "basketball-court-shots", "freethrow-basketball-side", "ball-vertical-toss", "ball-hand-moved-negative"] {
            let truth = try JSONDecoder().decode(GroundTruth.self, from: Data(contentsOf: URL(fileURLWithPath: RealClip.truthFolder + "/" + clip + ".truth.json")))
            let figures = try RealClip.decode(folder: data + "/" + clip) { c, render in
                try CueFigures.measure(width: c.width, height: c.height, frameCount: c.frameCount, framesPerSecond: c.framesPerSecond,
                                       balls: CueFigures.balls(truth, width: c.width, height: c.height), render: render)
            }
            all = all + figures
            lines.append("\(clip): \(figures)")
        }
        lines.append("real clips pooled: \(all)")
        TestFigures.record(lines.joined(separator: "\n"), named: "cues-real.txt")
    }

    @Test("synthetic crowded scenes of the 50-scene sweep: each cue's separation of balls from their shadows")
    func crowdedScenes() throws {
        var all = CueFigures(), lines: [String] = []
        for seed in (1...50 as ClosedRange<UInt64>) where QualitySweep.settings(seed: seed).kind == .crowded {
            let settings = QualitySweep.settings(seed: seed).settings
            let scene = try SyntheticScene(kind: .crowded, settings: settings)
            let companions = BallCompanions(settings: settings)
            let (w, h) = (Double(settings.width), Double(settings.height))
            let balls = CueFigures.balls(scene.truth, width: settings.width, height: settings.height)
            var shadows: [Int: [CueFigures.Spot]] = [:]
            for s in scene.truth.ballSegments {
                for p in s.points {
                    let r = p[3] * w
                    shadows[Int(p[0]), default: []].append((p[1] * w + companions.shadowOffsetX * r, (1 - p[2]) * h + companions.shadowOffsetY * r,
                                                            max(6, companions.shadowScale * r)))
                }
            }
            let figures = try CueFigures.measure(width: settings.width, height: settings.height, frameCount: settings.frameCount,
                                                 framesPerSecond: Double(settings.framesPerSecond), balls: balls, shadows: shadows) { i, buffer in
                scene.render(frame: i, into: buffer)
            }
            all = all + figures
            lines.append("seed \(seed): \(figures)")
        }
        lines.append("crowded scenes pooled: \(all)")
        TestFigures.record(lines.joined(separator: "\n"), named: "cues-crowded.txt")
    }
}
