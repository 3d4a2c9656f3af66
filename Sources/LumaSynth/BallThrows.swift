import LumaBase

/// Draws the balls of a scene from its seed: how many, how big, how bright, and how each is
/// thrown, then checks that the throws make a useful fixture and redraws them if not.
///
/// Each ball gets a *role* that shapes its throw, so every scene contains the cases analyzers must
/// handle: at least one ball that bounces on the floor line and one that leaves through a side;
/// the others are random, including lobs that go over the top edge and come back. Balls are thrown
/// from a hand inside the frame (the ball appears at the launch point; the thrower is not drawn)
/// or fly in from a side, at staggered times so several are in the air together.
///
/// A draw is accepted when every segment has at least `minimumPoints` points, there is a visible
/// bounce and a visible exit, every ball is seen, and at least two balls fly at once. Otherwise
/// the same seed's next attempt is drawn (attempts are numbered, so this stays deterministic). A
/// recording too short to satisfy everything gets the attempt with the fewest violations.
struct BallThrows: Sendable {
    let balls: [Ball]
    /// Gravity in px/s², downward.
    let gravity: Double
    /// Scene width in metres that sets gravity in pixels (9.81 m/s² × width / metres).
    let sceneMetres: Double
    /// Which attempt was accepted (0 = the first draw).
    let attempt: Int
    /// Remaining violations of the acceptance rules (0 unless the recording is too short).
    let violations: Int

    static let minimumPoints = 8
    static let maximumAttempts = 400

    private enum Role: CaseIterable { case bounce, exit, lob, free }

    init(settings: SceneSettings, layout: SetLayout, count: ClosedRange<Int>) {
        let chosen = FewestViolations(maximumAttempts: Self.maximumAttempts) { attempt in
            var rng = SeededRandom(seed: settings.seed, stream: "balls", attempt: attempt)
            let drawn = Self.draw(&rng, settings: settings, layout: layout, count: count)
            return (drawn, Self.violations(drawn.balls, settings: settings))
        }
        (balls, gravity, sceneMetres) = chosen.value
        attempt = chosen.attempt
        violations = chosen.violations
    }

    private static func draw(
        _ rng: inout SeededRandom, settings: SceneSettings, layout: SetLayout, count: ClosedRange<Int>
    ) -> (balls: [Ball], gravity: Double, metres: Double) {
        let w = Double(settings.width), h = Double(settings.height)
        let fps = Double(settings.framesPerSecond)
        let duration = settings.duration
        let floorY = layout.floorY
        let n = rng.int(in: count)
        let metres = rng.uniform(5, 9)
        let g = 9.81 * w / metres

        var roles: [Role] = [.bounce, .exit]
        while roles.count < n { roles.append([Role.bounce, .exit, .lob, .lob, .free][rng.int(in: 0...4)]) }
        roles = rng.shuffled(Array(roles.prefix(n)))

        // Radii spread over 0.005...0.025 of the width; one low-contrast ball (~25 grey levels);
        // brighter and darker balls mixed.
        let radii = rng.shuffled((0..<n).map { i in
            w * (0.005 + 0.02 * (Double(i) + rng.uniform(0.15, 0.85)) / Double(n))
        })
        var magnitudes = [rng.uniform(22, 28)]
        if n >= 5 { magnitudes.append(rng.uniform(22, 30)) }
        while magnitudes.count < n { magnitudes.append(rng.uniform(38, 80)) }
        magnitudes = rng.shuffled(magnitudes)
        var signs = (0..<n).map { $0 % 2 == 0 ? 1.0 : -1.0 }
        signs = rng.shuffled(signs)

        let latestLaunch = max(0, 0.55 * duration - 0.4)
        let minimumHop = max(0.3, 9 / fps)
        var balls: [Ball] = []
        for i in 0..<n {
            let r = radii[i]
            let contrast = signs[i] > 0 ? magnitudes[i] : -min(magnitudes[i], 62)
            let path = launchPath(role: roles[i], radius: r, gravity: g, latestLaunch: latestLaunch, width: w, height: h,
                                  floorY: floorY, &rng)
            balls.append(
                Ball(
                    number: i + 1, radius: r, contrast: contrast, restitution: rng.uniform(0.6, 0.75),
                    friction: rng.uniform(0.75, 0.95), gravity: g, launch: path.launch, x: path.x, y: path.y, vx: path.vx, vy: path.vy,
                    floorY: floorY, frameWidth: w, minimumHop: minimumHop))
        }
        return (balls, g, metres)
    }

    /// When a ball of radius `r` in `role` is thrown, from where, and how fast (pixels and seconds,
    /// y down): from a hand inside the frame or from a side, up to an apex, towards a landing point
    /// the role chooses.
    private static func launchPath(role: Role, radius r: Double, gravity g: Double, latestLaunch: Double, width w: Double,
                                   height h: Double, floorY: Double, _ rng: inout SeededRandom)
        -> (launch: Double, x: Double, y: Double, vx: Double, vy: Double) {
        let launch = rng.uniform(-0.25, latestLaunch)
        let fromSide = role != .lob && rng.chance(0.35)
        let leftSide = rng.chance(0.5)
        let x0: Double, y0: Double
        if fromSide {
            x0 = leftSide ? -1.2 * r : w + 1.2 * r
            y0 = rng.uniform(0.25 * h, max(0.26 * h, floorY - 0.2 * h))
        } else {
            x0 = rng.uniform(0.1, 0.9) * w
            y0 = max(0.2 * h, floorY - rng.uniform(0.12, 0.4) * h)
        }
        let apexY: Double
        if role == .lob {
            apexY = -rng.uniform(0.05, 0.3) * h
        } else {
            apexY = rng.uniform(max(0.05 * h, 1.5 * r), max(0.06 * h, y0 - 0.1 * h))
        }
        let vy = -(2 * g * max(0, y0 - apexY)).squareRoot()
        let toFloor = (-vy + (vy * vy + 2 * g * max(0, floorY - r - y0)).squareRoot()) / g
        let landing: Double
        switch role {
        case .bounce, .lob:
            landing = rng.uniform(0.15, 0.85) * w
        case .exit:
            // From a hand, towards the nearer side; from a side, across to the other.
            let rightward = fromSide ? leftSide : x0 > 0.5 * w
            landing = rightward ? rng.uniform(1.05, 1.3) * w : -rng.uniform(0.05, 0.3) * w
        case .free:
            landing = rng.uniform(-0.3, 1.3) * w
        }
        // At most one frame width per second: fast, but not a blur.
        let vx = ((landing - x0) / max(toFloor, 0.05)).clamped(-w, w)
        return (launch, x0, y0, vx, vy)
    }

    /// How far a draw is from an ideal fixture; 0 = accept.
    private static func violations(_ balls: [Ball], settings: SceneSettings) -> Int {
        var score = 0
        var framesInFlight: [Int: Int] = [:]
        var sawBounce = false, sawExit = false
        for ball in balls {
            let segments = ball.segments(
                frameCount: settings.frameCount, framesPerSecond: Double(settings.framesPerSecond),
                width: settings.width, height: settings.height)
            if segments.isEmpty { score += 3 }
            for (i, segment) in segments.enumerated() {
                // A bounce should be seen from both sides: the next segment starts in the next frame.
                if segment.end == "bounce" {
                    let next = i + 1 < segments.count ? segments[i + 1].points.first?[0] : nil
                    if next != (segment.points.last?[0] ?? -1) + 1 { score += 2 }
                }
                if segment.points.count < minimumPoints { score += 2 }
                if segment.end == "bounce" { sawBounce = true }
                if segment.end == "exit" { sawExit = true }
                for point in segment.points { framesInFlight[Int(point[0]), default: 0] += 1 }
            }
        }
        if !sawBounce { score += 3 }
        if !sawExit { score += 3 }
        if balls.count > 1, (framesInFlight.values.max() ?? 0) < 2 { score += 2 }
        return score
    }
}
