import LumaImaging

/// A textured rectangle moving in the image plane, for the box tracker.
///
/// Its centre follows a Lissajous path (independent sinusoids in x and y), which is smooth and
/// curved and never leaves the frame; its size is constant except during an optional scale pulse
/// that grows it to `1 + pulsePeak` times and back. It translates and scales but never rotates.
/// `depth` orders objects front to back where they overlap (larger = nearer the camera); the post
/// is in front of every object, balls in front of everything.
struct TrackedObject: Sendable {
    /// 1-based; the truth id is `object<number>`.
    let number: Int
    /// Size in pixels at scale 1.
    let baseWidth: Double
    let baseHeight: Double
    let path: LissajousPath
    let pulse: ScalePulse?
    let depth: Int
    let texture: ObjectTexture
    /// What the object is for in the scene, for notes and tests: "crosses object2", ...
    let role: String

    var id: String { "object\(number)" }

    /// The object's box at time `t` seconds, in continuous pixel coordinates.
    func box(at t: Double) -> SceneRect {
        let scale = pulse?.scale(at: t) ?? 1
        let c = path.point(at: t)
        return SceneRect(centerX: c.x, centerY: c.y, width: baseWidth * scale, height: baseHeight * scale)
    }
}

/// x(t) = cx + ax·sin(ωx·t + φx), y(t) = cy + ay·sin(ωy·t + φy), in pixels and seconds.
struct LissajousPath: Sendable, Equatable {
    var cx: Double, ax: Double, omegaX: Double, phaseX: Double
    var cy: Double, ay: Double, omegaY: Double, phaseY: Double

    func point(at t: Double) -> (x: Double, y: Double) {
        (cx + ax * PortableMath.sin(omegaX * t + phaseX), cy + ay * PortableMath.sin(omegaY * t + phaseY))
    }
}

/// Scale 1 outside `start ..< start + duration`; inside, a raised cosine up to `1 + peak` at the
/// middle and back, so the size changes smoothly.
struct ScalePulse: Sendable, Equatable {
    var start: Double
    var duration: Double
    var peak: Double

    func scale(at t: Double) -> Double {
        guard t > start, t < start + duration else { return 1 }
        return 1 + peak * 0.5 * (1 - PortableMath.cos(2 * PortableMath.pi * (t - start) / duration))
    }
}
