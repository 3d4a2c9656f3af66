/// One thrown ball: its look and its complete motion, in continuous pixel coordinates (y down)
/// and seconds.
///
/// Motion is a chain of `BallArc`s, parabolas under constant gravity `g` (px/s², downward). An arc
/// ends when the ball's lowest point reaches the floor line; the next arc starts there with the
/// vertical speed reversed and scaled by the restitution, and the horizontal speed scaled by the
/// floor friction. When the next hop would last less than `minimumHop`, the ball stops: it rests
/// on the floor line where it landed for the rest of the recording. A ball that lands outside the
/// frame is gone (nothing brings it back).
struct Ball: Sendable {
    /// 1-based; truth ids are `ball<number>.<segment>`.
    let number: Int
    /// Radius in pixels.
    let radius: Double
    /// Grey levels relative to the local background mean (negative: darker than the background).
    let contrast: Double
    let restitution: Double
    let gravity: Double
    let arcs: [BallArc]
    /// What the ball does after its last arc.
    let after: Aftermath

    enum Aftermath: Sendable, Equatable {
        /// At rest on the floor at (x, y) from the end of the last arc.
        case rests(x: Double, y: Double)
        /// Landed outside the frame and never comes back.
        case gone
    }

    enum State: Equatable {
        case notThrownYet
        case flying(arc: Int, x: Double, y: Double)
        case resting(x: Double, y: Double)
        case gone
    }

    var id: String { "ball\(number)" }
    var launchTime: Double { arcs.first?.start ?? 0 }

    /// Where the ball is at time `t` seconds.
    func state(at t: Double) -> State {
        guard let first = arcs.first, t >= first.start else { return .notThrownYet }
        for (i, arc) in arcs.enumerated() where t < arc.end {
            let p = arc.position(at: t, gravity: gravity)
            return .flying(arc: i, x: p.x, y: p.y)
        }
        switch after {
        case .rests(let x, let y): return .resting(x: x, y: y)
        case .gone: return .gone
        }
    }

    /// Builds the arc chain for a ball launched at `launch` from (`x`, `y`) with velocity
    /// (`vx`, `vy`) px/s, bouncing on the floor line `floorY`.
    init(
        number: Int, radius: Double, contrast: Double, restitution: Double, friction: Double,
        gravity: Double, launch: Double, x: Double, y: Double, vx: Double, vy: Double, floorY: Double,
        frameWidth: Double, minimumHop: Double
    ) {
        self.number = number
        self.radius = radius
        self.contrast = contrast
        self.restitution = restitution
        self.gravity = gravity
        var arcs: [BallArc] = []
        var start = launch, x0 = x, y0 = min(y, floorY - radius), vx0 = vx, vy0 = vy
        var after = Aftermath.gone
        for _ in 0..<64 {
            // Time until the lowest point reaches the floor: y0 + vy τ + g τ²/2 = floorY - r.
            let drop = floorY - radius - y0
            let tau = (-vy0 + (vy0 * vy0 + 2 * gravity * max(0, drop)).squareRoot()) / gravity
            let arc = BallArc(start: start, end: start + tau, x0: x0, y0: y0, vx: vx0, vy: vy0)
            arcs.append(arc)
            let landX = x0 + vx0 * tau
            let impact = vy0 + gravity * tau
            if landX < -radius || landX > frameWidth + radius {
                after = .gone
                break
            }
            let rebound = restitution * impact
            if 2 * rebound / gravity < minimumHop {
                after = .rests(x: landX, y: floorY - radius)
                break
            }
            start += tau
            x0 = landX
            y0 = floorY - radius
            vx0 *= friction
            vy0 = -rebound
        }
        self.arcs = arcs
        self.after = after
    }
}

/// One parabola of a ball's flight, valid for `start <= t < end` seconds.
struct BallArc: Sendable, Equatable {
    let start: Double
    /// When the ball's lowest point reaches the floor line.
    let end: Double
    let x0: Double
    let y0: Double
    let vx: Double
    let vy: Double

    @inline(__always) func position(at t: Double, gravity: Double) -> (x: Double, y: Double) {
        let tau = t - start
        return (x0 + vx * tau, y0 + vy * tau + 0.5 * gravity * tau * tau)
    }
}

// MARK: - Drawing

extension Ball {
    /// Draws the ball centred at (`cx`, `cy`) as an anti-aliased disc: edge pixels get the
    /// fraction of their area inside the circle (8×8 supersampling), interior pixels the ball's
    /// grey. The grey is `base + contrast`, plus gentle shading lit from the upper left so the
    /// ball looks round; the shading is zero at the centre.
    func draw(cx: Double, cy: Double, base: Double, into plane: Plane) {
        let r = radius
        let bounds = SceneRect(left: cx - r - 1, top: cy - r - 1, right: cx + r + 1, bottom: cy + r + 1)
        let span = bounds.pixelSpan(width: plane.width, height: plane.height)
        guard !span.columns.isEmpty, !span.rows.isEmpty else { return }
        let core = base + contrast
        let shading = (0.22 * abs(contrast) + 4) / r  // grey levels per pixel towards the light
        let lightX = -0.6, lightY = -0.8
        let inner = r > 0.75 ? (r - 0.75) * (r - 0.75) : -1
        let outer = (r + 0.75) * (r + 0.75)
        let r2 = r * r
        for py in span.rows {
            let row = plane.row(py)
            let dy = Double(py) + 0.5 - cy
            for px in span.columns {
                let dx = Double(px) + 0.5 - cx
                let d2 = dx * dx + dy * dy
                if d2 >= outer { continue }
                var coverage = 1.0
                if d2 > inner {
                    var inside = 0
                    for sy in 0..<8 {
                        let oy = dy + (Double(sy) + 0.5) / 8 - 0.5
                        for sx in 0..<8 {
                            let ox = dx + (Double(sx) + 0.5) / 8 - 0.5
                            if ox * ox + oy * oy < r2 { inside += 1 }
                        }
                    }
                    if inside == 0 { continue }
                    coverage = Double(inside) / 64
                }
                let value = core + shading * (dx * lightX + dy * lightY)
                let old = Double(row[px])
                row[px] = grey(old + (value - old) * coverage)
            }
        }
    }
}
