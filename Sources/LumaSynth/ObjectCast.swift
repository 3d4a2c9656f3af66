import LumaBase
import LumaImaging

/// Draws the tracked rectangles of a scene from its seed, each with a role that guarantees the
/// cases a tracker must survive:
///
/// - two objects that **cross**: they pass the same point at the same moment, the front one hiding
///   the other (`depth` decides which);
/// - one that passes **behind the post** (more than 30% hidden for a while);
/// - one that **changes scale**, growing to about 1.6× and back (with three objects this is the
///   front crosser; with four, a free wanderer).
///
/// Events are timed inside the first ten seconds (or the recording, if shorter) and recur with the
/// paths' periods of 4.5–7 s. A draw is redrawn (next attempt, deterministically) if the crossing,
/// the occlusion or the scale peak does not show in the recording's frames.
struct ObjectCast: Sendable {
    let objects: [TrackedObject]
    let attempt: Int
    let violations: Int

    static let maximumAttempts = 60

    init(settings: SceneSettings, layout: SetLayout, count: ClosedRange<Int>) {
        let chosen = FewestViolations(maximumAttempts: Self.maximumAttempts) { attempt in
            var rng = SeededRandom(seed: settings.seed, stream: "objects", attempt: attempt)
            let objects = Self.draw(&rng, settings: settings, layout: layout, count: count)
            return (objects, Self.violations(objects, settings: settings, layout: layout))
        }
        objects = chosen.value
        attempt = chosen.attempt
        violations = chosen.violations
    }

    private enum Role { case crossFront, crossBack, occluded, wanderer }

    private static func draw(
        _ rng: inout SeededRandom, settings: SceneSettings, layout: SetLayout, count: ClosedRange<Int>
    ) -> [TrackedObject] {
        let w = Double(settings.width), h = Double(settings.height)
        let eventWindow = min(settings.duration, 10)
        let n = rng.int(in: count)
        let post = layout.post ?? SceneRect(left: 0.72 * w, top: 0, right: 0.78 * w, bottom: layout.floorY)
        let omega = 2 * PortableMath.pi / rng.uniform(4.5, 7)
        let margin = 0.02 * min(w, h)
        let pulsePeak = rng.uniform(0.55, 0.65)
        let pulse = ScalePulse(
            start: rng.uniform(0.1, 0.3) * eventWindow,
            duration: (0.55 * eventWindow).clamped(1.5, 6), peak: pulsePeak)

        let roles: [Role] = n >= 4 ? [.crossFront, .crossBack, .occluded, .wanderer] : [.crossFront, .crossBack, .occluded]
        let patterns = rng.shuffled(ObjectTexture.Pattern.allCases)
        let numbers = rng.shuffled(Array(1...roles.count))

        let postOnLeft = post.centerX < w / 2
        let stage = Stage(
            width: w, height: h, margin: margin, omega: omega, post: post, floorY: layout.floorY,
            meetX: postOnLeft ? rng.uniform(0.55, 0.72) * w : rng.uniform(0.28, 0.45) * w,
            meetY: rng.uniform(0.3, 0.55) * h,
            crossTime: rng.uniform(0.25, 0.5) * eventWindow,
            hideTime: rng.uniform(0.2, 0.55) * eventWindow,
            numbers: numbers)

        var objects: [TrackedObject] = []
        var frontHeight = 0.0
        for (index, role) in roles.enumerated() {
            let hasPulse = (role == .crossFront && n < 4) || role == .wanderer
            let maxScale = hasPulse ? 1 + pulsePeak : 1
            let baseWidth = w * (role == .occluded ? rng.uniform(0.07, 0.1) : rng.uniform(0.08, 0.13))
            let baseHeight = min(baseWidth * rng.uniform(0.6, 1.4), 0.28 * h / maxScale)
            let (path, depth, said) = stage.path(
                of: role, half: (baseWidth * maxScale / 2, baseHeight * maxScale / 2), baseHeight: baseHeight,
                frontHeight: frontHeight, &rng)
            if role == .crossFront { frontHeight = baseHeight }
            let description = said + (hasPulse ? ", grows to \(DecimalText.fixed(1 + pulsePeak, 2))x and back" : "")
            let texture = ObjectTexture(
                pattern: patterns[index % patterns.count],
                width: Int((baseWidth * maxScale).rounded(.up)), height: Int((baseHeight * maxScale).rounded(.up)),
                rng: &rng)
            objects.append(
                TrackedObject(
                    number: numbers[index], baseWidth: baseWidth, baseHeight: baseHeight, path: path,
                    pulse: hasPulse ? pulse : nil, depth: depth, texture: texture, role: description))
        }
        return objects.sorted { $0.number < $1.number }
    }

    /// What every object's path is planned against: the frame, the post, where and when the
    /// crossing objects meet and when the occluded one hides, the base angular speed.
    private struct Stage {
        let width: Double, height: Double, margin: Double, omega: Double
        let post: SceneRect
        let floorY: Double
        let meetX: Double, meetY: Double, crossTime: Double, hideTime: Double
        /// Each role's object number, in role order.
        let numbers: [Int]

        /// Keeps a box of half-size `half` inside 0...limit (with the margin) for the whole path.
        func fit(_ center: Double, _ amplitude: Double, half: Double, limit: Double) -> (Double, Double) {
            let lo = half + margin, hi = limit - half - margin
            guard lo < hi else { return (limit / 2, 0) }
            let c = center.clamped(lo, hi)
            let a = min(abs(amplitude), c - lo, hi - c)
            return (c, amplitude < 0 ? -a : a)
        }

        /// The path, depth and description of an object in `role` whose box, at its largest, has
        /// half-sizes `half`; `frontHeight` is the front crossing object's base height (0 before it).
        func path(of role: Role, half: (width: Double, height: Double), baseHeight: Double, frontHeight: Double,
                  _ rng: inout SeededRandom) -> (LissajousPath, Int, String) {
            let (w, h) = (width, height)
            let (halfW, halfH) = half
            switch role {
            case .crossFront, .crossBack:
                let front = role == .crossFront
                let (cx, ax) = fit(meetX, (front ? 1 : -1) * rng.uniform(0.15, 0.25) * w, half: halfW, limit: w)
                let offset = front ? 0 : rng.uniform(-0.3, 0.3) * min(frontHeight, baseHeight)
                let (cy, ay) = fit(meetY + offset, rng.uniform(0.04, 0.1) * h, half: halfH, limit: h)
                let omegaY = omega * rng.uniform(0.6, 1.5)
                let path = LissajousPath(
                    cx: cx, ax: ax, omegaX: omega, phaseX: -omega * crossTime,
                    cy: cy, ay: ay, omegaY: omegaY, phaseY: -omegaY * crossTime)
                return (path, front ? 3 : 1, front ? "crosses in front of object\(numbers[1])" : "crosses behind object\(numbers[0])")
            case .occluded:
                let omegaX = omega * rng.uniform(0.8, 1.2)
                let (cx, ax) = fit(post.centerX, rng.sign() * rng.uniform(0.12, 0.22) * w, half: halfW, limit: w)
                let ay = rng.uniform(0.02, 0.06) * h
                let low = 0.15 * h + halfH + ay, high = floorY - halfH - ay - 0.02 * h
                let cy = low < high ? rng.uniform(low, high) : floorY / 2
                let path = LissajousPath(
                    cx: cx, ax: ax, omegaX: omegaX, phaseX: -omegaX * hideTime,
                    cy: cy, ay: ay, omegaY: omega * rng.uniform(0.5, 1.5), phaseY: rng.uniform(0, 6.28))
                return (path, 2, "passes behind the post")
            case .wanderer:
                let (cx, ax) = fit(rng.uniform(0.35, 0.65) * w, rng.uniform(0.1, 0.25) * w, half: halfW, limit: w)
                let (cy, ay) = fit(rng.uniform(0.3, 0.7) * h, rng.uniform(0.05, 0.15) * h, half: halfH, limit: h)
                let path = LissajousPath(
                    cx: cx, ax: ax, omegaX: omega * rng.uniform(0.7, 1.3), phaseX: rng.uniform(0, 6.28),
                    cy: cy, ay: ay, omegaY: omega * rng.uniform(0.5, 1.8), phaseY: rng.uniform(0, 6.28))
                return (path, rng.chance(0.5) ? 0 : 4, "wanders")
            }
        }
    }

    /// 0 when the crossing, the occlusion by the post and the scale peak all show in the frames.
    private static func violations(_ objects: [TrackedObject], settings: SceneSettings, layout: SetLayout) -> Int {
        let fps = Double(settings.framesPerSecond)
        let lastFrame = min(settings.frameCount - 1, Int((11 * fps).rounded(.up)))
        var crossed = false, hidden = false, visible = false, grew = false
        let front = objects.first { $0.depth == 3 }
        let back = objects.first { $0.depth == 1 }
        let occluded = objects.first { $0.depth == 2 }
        let pulsing = objects.first { $0.pulse != nil }
        for frame in 0...lastFrame {
            let t = Double(frame) / fps
            if let front, let back {
                let a = front.box(at: t), b = back.box(at: t)
                if a.overlapArea(b) > 0.3 * min(a.area, b.area) { crossed = true }
            }
            if let occluded, let post = layout.post {
                let box = occluded.box(at: t)
                if box.overlapArea(post) > 0.3 * box.area { hidden = true } else { visible = true }
            }
            if let pulsing, let pulse = pulsing.pulse, pulse.scale(at: t) > 1 + 0.9 * pulse.peak { grew = true }
        }
        return (crossed ? 0 : 1) + (hidden ? 0 : 1) + (visible ? 0 : 1) + (grew ? 0 : 1)
    }
}
