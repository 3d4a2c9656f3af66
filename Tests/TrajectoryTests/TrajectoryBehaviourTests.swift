import Foundation
import LumaAnalysis
import LumaEngine
import LumaTestSupport
import Testing
@testable import TrajectoryAnalyzer

/// What the trajectory analyzer reports, case by case, on small scenes whose truth is a formula.
@Suite("Trajectory analyzer: Vision's observations, and what it refuses to call a trajectory")
struct TrajectoryBehaviourTests {
    /// A 12-px grey ball thrown left to right across a brick wall: up, apex, down; 320×240, 30 fps.
    static func thrown(t: Double) -> (x: Double, y: Double)? {
        guard t >= 0.2, t <= 1.4 else { return nil }
        let s = t - 0.2
        return (40 + 200 * s, 200 - 300 * s + 250 * s * s)
    }

    static var throwScene: DiscScene {
        var scene = DiscScene(width: 320, height: 240, frameCount: 60)
        scene.discs = [.init(path: thrown, radius: 6, grey: 200)]
        return scene
    }

    /// How far the path `points` (`[frame, x, y]`, normalized, lower-left origin) lie from the ball
    /// that `ball` draws at each time (320×240 pixels at 30 frames/s): the worst distance in pixels,
    /// and the frames of points reported while no ball was shown.
    static func pointError(_ points: [[Double]], ball: (Double) -> (x: Double, y: Double)?) -> (worst: Double, strays: [Double]) {
        var worst = 0.0, strays: [Double] = []
        for p in points {
            guard let truth = ball(p[0] / 30) else { strays.append(p[0]); continue }
            let dx = p[1] * 320 - truth.x, dy = (1 - p[2]) * 240 - truth.y
            worst = max(worst, (dx * dx + dy * dy).squareRoot())
        }
        return (worst, strays)
    }

    /// A ball shot away from the camera, as at a hoop filmed from behind the shooter: perspective
    /// shrinks its sideways steps (x slows from 330 to 90 px/s), gravity curves its height.
    static func shotAway(t: Double) -> (x: Double, y: Double)? {
        guard t >= 0.2, t <= 1.0 else { return nil }
        let s = t - 0.2
        return (40 + 330 * s - 150 * s * s, 200 - 330 * s + 300 * s * s)
    }

    @Test("a ball flying away from the camera is one trajectory whose x(t) is quadratic, every point on it")
    func perspectiveThrow() throws {
        var scene = DiscScene(width: 320, height: 240, frameCount: 40)
        scene.discs = [.init(path: Self.shotAway, radius: 6, grey: 200)]
        let run = try scene.run()
        let ends = run.ends
        try #require(ends.count == 1, "\(ends.map { $0.points.count })")
        let end = ends[0]
        #expect(end.points.count >= 20, "the whole flight, not the part a straight x(t) fits")
        #expect(end.timeFit.x.count == 3, "x(t) = x0 + vx·t + ax·t²")
        // x[2] is half the sideways acceleration, normalized: −150 px/s² over 320 px.
        #expect(abs(end.timeFit.x[2] * 320 + 150) < 15, "\(end.timeFit.x)")
        let (worst, strays) = Self.pointError(end.points, ball: Self.shotAway)
        #expect(strays.isEmpty, "points at frames \(strays) while no ball is shown")
        #expect(worst < 1.0, "worst point error \(worst) px")
    }

    @Test("a thrown ball is one trajectory, reported with Vision's fields, within a pixel of its path")
    func thrownBall() throws {
        let run = try Self.throwScene.run()
        let observations = run.observations
        #expect(!observations.isEmpty)
        #expect(Set(observations.map(\.observation.id)).count == 1, "one id for the trajectory's whole life")
        for (_, o) in observations {
            #expect(o.detectedPoints.count == 10, "trajectoryLength points per observation")
            #expect(o.projectedPoints.count == 5)
            #expect(o.equationCoefficients.count == 3)
            #expect(o.equationCoefficients[0] < 0, "y = ax² + bx + c opens downwards (y up, like Vision)")
            #expect((0.7...1).contains(o.confidence))
            #expect(abs(o.movingAverageRadius * 320 - 6) < 1)
            #expect(o.timeFit.y[2] < 0, "y(t) falls under gravity")
            #expect(o.timeFit.x.count == 2, "a throw across the image keeps a straight x(t)")
        }
        let ends = run.ends
        try #require(ends.count == 1)
        let end = ends[0]
        #expect(end.id == observations[0].observation.id)
        #expect(end.points.count >= 30)
        // Every measured point within a pixel of the true centre.
        let (worst, strays) = Self.pointError(end.points, ball: Self.thrown)
        #expect(strays.isEmpty, "points at frames \(strays) while no ball is shown")
        #expect(worst < 1.0, "worst point error \(worst) px")
        // Launch: 200 px/s right and 300 px/s up at the first detection's time, within a few per cent.
        let first = end.points[0][0] / 30 - 0.2
        #expect(abs(end.launch.pixelVelocity[0] - 200) < 10)
        #expect(abs(end.launch.pixelVelocity[1] - (300 - 500 * first)) < 15)
        let apex = try #require(end.apex)
        #expect(abs(apex.x * 320 - (40 + 200 * 0.6)) < 3 && abs((1 - apex.y) * 240 - (200 - 90)) < 3)
    }

    @Test("the same frames give the same events, every time")
    func deterministic() throws {
        let a = try Self.throwScene.run(), b = try Self.throwScene.run()
        #expect(a.events.map(\.frame) == b.events.map(\.frame))
        #expect(a.events.map(\.payload) == b.events.map(\.payload))
    }

    @Test("a ball tossed straight up is found by the time fit, which y = f(x) cannot describe")
    func verticalToss() throws {
        var scene = DiscScene(width: 320, height: 240, frameCount: 60)
        scene.discs = [.init(path: { t in t < 0.1 || t > 1.1 ? nil : (160, 200 - 400 * (t - 0.1) + 400 * (t - 0.1) * (t - 0.1)) },
                             radius: 6, grey: 200)]
        let ends = try scene.run().ends
        try #require(ends.count == 1)
        let end = ends[0]
        #expect(end.points.count >= 25)
        #expect(end.timeFit.y[2] < 0)
        #expect(abs(end.timeFit.x[1]) < 0.02, "no sideways speed")
        #expect(end.launch.angle > 80, "launched upwards, angle \(end.launch.angle)")
    }

    @Test("a ball moved by hand, in a straight line or accelerating upwards, is no trajectory")
    func carried() throws {
        // Steady sideways and downwards: no acceleration at all.
        var steady = DiscScene(width: 320, height: 240, frameCount: 90)
        steady.discs = [.init(path: { t in (40 + 80 * t, 60 + 40 * t) }, radius: 6, grey: 200)]
        #expect(try steady.run().events.isEmpty)
        // Swung down and slowed to a stop: a parabola, but accelerating upwards (800 px/s²), which
        // gravity never does. (A hand's arc that curves downwards *is* a throw for as long as it
        // does; only the real negative clip can show how often that fools the analyzer.)
        var lifted = DiscScene(width: 320, height: 240, frameCount: 45)
        lifted.discs = [.init(path: { t in t < 0.25 || t > 1 ? nil : (20 + 120 * t, 220 - 400 * (1 - t) * (1 - t)) }, radius: 6, grey: 200)]
        #expect(try lifted.run().events.isEmpty)
    }

    @Test("a bounce ends one trajectory and starts another, with a new id")
    func bounce() throws {
        var scene = DiscScene(width: 320, height: 240, frameCount: 75)
        // Peaks at the top edge at t = 0.25, falls under 800 px/s² onto y = 220 at t = 1, bounces
        // with 60% of its speed and lands again at t = 1.9.
        scene.discs = [.init(path: { t in
            guard t >= 0.25, t <= 1.9 else { return nil }
            let x = 20 + 120 * t
            if t <= 1 { return (x, 220 - 600 * (1 - t) + 400 * (1 - t) * (1 - t)) }
            let s = t - 1
            return (x, 220 - 360 * s + 400 * s * s)
        }, radius: 6, grey: 210)]
        let ends = try scene.run().ends
        #expect(ends.count == 2)
        #expect(ends.first?.reason == .bounce)
        #expect(Set(ends.map(\.id)).count == ends.count)
    }

    @Test("objectMaximumNormalizedRadius filters, unlike Vision's")
    func maximumRadius() throws {
        #expect(try Self.throwScene.run { $0.objectMaximumNormalizedRadius = 0.01 }.events.isEmpty, "a 6 px ball is 0.019 of 320")
        #expect(try !Self.throwScene.run { $0.objectMaximumNormalizedRadius = 0.03 }.events.isEmpty)
        #expect(try Self.throwScene.run { $0.objectMinimumNormalizedRadius = 0.04 }.events.isEmpty)
    }

    @Test("filter=throw keeps the sample app's throws: left to right only")
    func throwFilter() throws {
        var mirrored = DiscScene(width: 320, height: 240, frameCount: 60)
        mirrored.discs = [.init(path: { t in Self.thrown(t: t).map { (320 - $0.x, $0.y) } }, radius: 6, grey: 200)]
        #expect(try !mirrored.run().events.isEmpty)
        #expect(try mirrored.run { $0.filter = .throw }.events.isEmpty)
        #expect(try !Self.throwScene.run { $0.filter = .throw }.events.isEmpty)
        #expect(try Self.throwScene.run { $0.direction = .rightToLeft }.events.isEmpty)
        #expect(try Self.throwScene.run { $0.minimumLength = 1000 }.events.isEmpty)
    }

    /// One impossible setting of each validated option.
    static func impossible(_ option: String) -> TrajectoryConfiguration {
        var c = TrajectoryConfiguration()
        switch option {
        case "trajectoryLength": c.trajectoryLength = 4
        case "objectMinimumNormalizedRadius": c.objectMinimumNormalizedRadius = -0.1
        case "objectMaximumNormalizedRadius": c.objectMinimumNormalizedRadius = 0.2; c.objectMaximumNormalizedRadius = 0.1
        case "threshold": c.threshold = 255
        case "maximumProcessingDimension": c.maximumProcessingDimension = 8
        case "minimumConfidence": c.minimumConfidence = 1.5
        default: Issue.record("no impossible value for \(option)")
        }
        return c
    }

    @Test("impossible options are refused, naming the option and its range",
          arguments: ["trajectoryLength", "objectMinimumNormalizedRadius", "objectMaximumNormalizedRadius", "threshold",
                      "maximumProcessingDimension", "minimumConfidence"])
    func refusedOptions(option: String) {
        let configuration = Self.impossible(option)
        #expect { try configuration.validate() } throws: { error in
            guard let e = error as? OptionError else { return false }
            return e.option == option && e.description.contains(option) && e.description.contains("...")
        }
    }

    @Test("one frame, a blank recording, pure noise and a 16384×16 strip run without error and give no trajectory",
          arguments: [(1, 320, 240, 0.0), (60, 320, 240, 0.0), (60, 320, 240, 8.0), (20, 16384, 16, 3.0)])
    func degenerate(frames: Int, width: Int, height: Int, noise: Double) throws {
        var rng = SeededGenerator(seed: 7)
        let run = try TrajectoryRunner.run(width: width, height: height, frameCount: frames) { _, pixels in
            for i in pixels.indices { pixels[i] = UInt8(max(0, min(255, (100 + noise * rng.normal()).rounded()))) }
        }
        #expect(run.events.isEmpty)
    }
}
