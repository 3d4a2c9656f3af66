import LumaBase

/// What real throws bring into the picture besides the ball, and a luma-only detector must not
/// take for one (scene kind `crowded`):
///
/// - **Shadows.** Each ball in the air casts a soft shadow on the wall behind it: a darker disc
///   1.3–1.6 times the ball's radius, its edge blurred over 0.6–0.9 radii, darkening the wall by
///   25–40%, offset from the ball by a light direction fixed for the whole scene (below it, and
///   to one side, by 1.2–2 radii). It moves exactly with the ball, so its path is a parabola too:
///   only its look — darker than the wall where the ball may be lighter, larger, softer — tells it
///   apart. The ball is drawn over it where they overlap.
/// - **Hands.** Each throw from inside the frame is made by a hand: an ellipse 2.2 ball radii wide
///   and 1.5 high, 15–30 grey levels lighter or darker than the wall, that carries the ball's
///   launch point upwards over the last quarter second before release, accelerating into the
///   throw, then falls back and slows to a stop over the next quarter second. It moves like a
///   hand, not under gravity, and it is where the ball is at the moment of release.
///
/// Neither is in the truth: every path on a shadow or a hand is a false one.
struct BallCompanions: Sendable {
    /// Shadow offset from the ball, in ball radii (y down).
    let shadowOffsetX: Double
    let shadowOffsetY: Double
    /// Shadow radius and edge width, in ball radii; darkening at the shadow's core, 0...1.
    let shadowScale: Double
    let shadowBlur: Double
    let shadowDepth: Double
    /// Grey levels a hand differs from the wall.
    let handContrast: Double
    /// How long a hand carries the ball before release, and takes to stop after, seconds.
    static let handTime = 0.25

    init(settings: SceneSettings) {
        var rng = SeededRandom(seed: settings.seed, stream: "companions")
        let side: Double = rng.chance(0.5) ? 1 : -1
        shadowOffsetX = side * rng.uniform(0.6, 1.2)
        shadowOffsetY = rng.uniform(1.0, 1.6)
        shadowScale = rng.uniform(1.3, 1.6)
        shadowBlur = rng.uniform(0.6, 0.9)
        shadowDepth = rng.uniform(0.25, 0.4)
        handContrast = (rng.chance(0.5) ? 1 : -1) * rng.uniform(15, 30)
    }

    /// Darkens the wall under the shadow of a ball of `radius` centred at (`x`, `y`).
    func drawShadow(ballX x: Double, y: Double, radius: Double, into plane: Plane) {
        let cx = x + shadowOffsetX * radius, cy = y + shadowOffsetY * radius
        let r = shadowScale * radius, blur = max(1, shadowBlur * radius)
        let reach = r + blur / 2
        let span = SceneRect(left: cx - reach, top: cy - reach, right: cx + reach, bottom: cy + reach)
            .pixelSpan(width: plane.width, height: plane.height)
        guard !span.columns.isEmpty, !span.rows.isEmpty else { return }
        for py in span.rows {
            let row = plane.row(py)
            let dy = Double(py) + 0.5 - cy
            for px in span.columns {
                let dx = Double(px) + 0.5 - cx
                let d = (dx * dx + dy * dy).squareRoot()
                // 1 inside, 0 outside, a smooth ramp over `blur` across the edge.
                let u = ((reach - d) / blur).clamped(0, 1)
                let weight = u * u * (3 - 2 * u)
                guard weight > 0 else { continue }
                row[px] = grey(Double(row[px]) * (1 - shadowDepth * weight))
            }
        }
    }

    /// Where the hand that throws `ball` is at `t`, or `nil` when it is not in the picture: from a
    /// quarter second before the ball's first launch to a quarter second after, for a launch
    /// inside the frame.
    func handCentre(of ball: Ball, at t: Double, width: Double, height: Double) -> (x: Double, y: Double)? {
        guard let arc = ball.arcs.first else { return nil }
        let T = Self.handTime
        guard t >= arc.start - T, t <= arc.start + T, arc.start >= T,
              arc.x0 >= 0, arc.x0 <= width, arc.y0 >= 0, arc.y0 <= height else { return nil }
        // Under the ball, holding it: the hand's centre is 0.8 radii below the ball's.
        let x0 = arc.x0, y0 = arc.y0 + 0.8 * ball.radius
        if t <= arc.start {
            // Accelerating evenly into the throw: at release it moves with the ball's launch velocity.
            let s = arc.start - t
            let k = s - s * s / (2 * T)
            return (x0 - arc.vx * k, y0 - arc.vy * k)
        }
        // Falling back: the direction reversed, slowing to a stop.
        let s = t - arc.start
        let k = 0.5 * (s - s * s / (2 * T))
        return (x0 + arc.vx * k * 0.3, y0 - arc.vy * k)
    }

    /// Draws a hand for a ball of `radius` centred at (`x`, `y`) over a wall of mean grey `base`.
    func drawHand(x: Double, y: Double, radius: Double, base: Double, into plane: Plane) {
        let a = 1.1 * radius, b = 0.75 * radius
        let span = SceneRect(left: x - a - 1, top: y - b - 1, right: x + a + 1, bottom: y + b + 1)
            .pixelSpan(width: plane.width, height: plane.height)
        guard !span.columns.isEmpty, !span.rows.isEmpty else { return }
        let value = base + handContrast
        for py in span.rows {
            let row = plane.row(py)
            let dy = (Double(py) + 0.5 - y) / b
            for px in span.columns {
                let dx = (Double(px) + 0.5 - x) / a
                let rho = (dx * dx + dy * dy).squareRoot()
                // A one-pixel soft edge.
                let coverage = ((1 - rho) * min(a, b) + 0.5).clamped(0, 1)
                guard coverage > 0 else { continue }
                let old = Double(row[px])
                row[px] = grey(old + (value - old) * coverage)
            }
        }
    }
}
