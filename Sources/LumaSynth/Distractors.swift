import LumaBase
import LumaImaging

/// Changes that are not thrown balls or tracked objects, for testing that analyzers ignore them:
///
/// - **Slow mover**: a large soft elliptical shadow (or glow) 25–40% of the width across, drifting
///   sideways at 3–6% of the width per second with a gentle bob: far slower and bigger than a
///   ball, and without a rectangle's edges. It passes behind tracked objects and the post.
/// - **Flickering light**: a soft elliptical patch of wall lit by an unsteady lamp; its brightness
///   gain oscillates at 0.8–2.5 Hz with a random frame-to-frame flutter.
/// - **Brightness drift**: the whole image's gain wanders by ±3–6% over 6–12 s, with a small offset
///   wobble, as when auto-exposure hunts or clouds pass.
struct Distractors: Sendable {
    // Slow mover, in pixels and seconds.
    let moverRadiusX: Double
    let moverRadiusY: Double
    let moverStartX: Double
    let moverSpeed: Double
    let moverY: Double
    let moverBob: Double
    let moverBobOmega: Double
    /// Grey levels added at the mover's centre (negative: a shadow).
    let moverContrast: Double
    /// Grey levels added by the mover as a function of normalized squared distance ρ² ∈ [0, 1),
    /// in 1024 steps: contrast · (1 − ρ²)².
    private let moverProfile: [Int16]

    // Flickering light.
    let lamp: SceneRect
    /// Per-pixel weight of the lamp's light in its bounding box, 0...256 (soft ellipse).
    private let lampWeights: [Int32]
    private let lampColumns: Range<Int>
    private let lampRows: Range<Int>
    let lampBaseGain: Double
    let lampSwing: Double
    let lampFrequency: Double
    private let lampPhase: Double
    private let lampKey: UInt64

    // Global drift.
    let driftAmplitude: Double
    let driftPeriod: Double
    private let driftPhase: Double
    let driftOffset: Double
    private let driftOffsetPeriod: Double

    init(settings: SceneSettings, layout: SetLayout) {
        var rng = SeededRandom(seed: settings.seed, stream: "distractors")
        let w = Double(settings.width), h = Double(settings.height)
        moverRadiusX = rng.uniform(0.12, 0.2) * w
        moverRadiusY = moverRadiusX * rng.uniform(0.6, 0.9)
        let rightward = rng.chance(0.5)
        moverSpeed = (rightward ? 1 : -1) * rng.uniform(0.03, 0.06) * w
        moverStartX = rightward ? rng.uniform(0.15, 0.35) * w : rng.uniform(0.65, 0.85) * w
        moverY = rng.uniform(0.3, 0.6) * h
        moverBob = rng.uniform(0.01, 0.04) * h
        moverBobOmega = 2 * PortableMath.pi / rng.uniform(3, 6)
        moverContrast = rng.chance(0.75) ? -rng.uniform(26, 45) : rng.uniform(22, 35)
        var profile = [Int16](repeating: 0, count: 1024)
        for i in 0..<1024 {
            let rho2 = (Double(i) + 0.5) / 1024
            profile[i] = Int16((moverContrast * (1 - rho2) * (1 - rho2)).rounded())
        }
        moverProfile = profile

        // The lamp lights a patch of upper wall away from the post.
        let lampWidth = rng.uniform(0.12, 0.2) * w
        let lampHeight = rng.uniform(0.2, 0.3) * h
        var lampX = rng.uniform(0.15, 0.85) * w
        if let post = layout.post, abs(lampX - post.centerX) < lampWidth / 2 + post.width {
            lampX = post.centerX < w / 2 ? max(lampX, post.right + lampWidth * 0.6) : min(lampX, post.left - lampWidth * 0.6)
        }
        let lampY = rng.uniform(0.15, 0.35) * h
        lamp = SceneRect(centerX: lampX, centerY: lampY, width: lampWidth, height: lampHeight)
        let span = lamp.pixelSpan(width: settings.width, height: settings.height)
        lampColumns = span.columns
        lampRows = span.rows
        var weights = [Int32](repeating: 0, count: span.columns.count * span.rows.count)
        var i = 0
        for row in span.rows {
            for column in span.columns {
                let dx = (Double(column) + 0.5 - lamp.centerX) / (lampWidth / 2)
                let dy = (Double(row) + 0.5 - lamp.centerY) / (lampHeight / 2)
                let rho2 = dx * dx + dy * dy
                let weight = rho2 < 1 ? (1 - rho2) * (1 - rho2) : 0
                weights[i] = Int32((weight * 256).rounded())
                i += 1
            }
        }
        lampWeights = weights
        lampBaseGain = rng.uniform(0.12, 0.25)
        lampSwing = rng.uniform(0.15, 0.25)
        lampFrequency = rng.uniform(0.8, 2.5)
        lampPhase = rng.uniform(0, 2 * PortableMath.pi)
        lampKey = rng.next()

        driftAmplitude = rng.uniform(0.03, 0.06)
        driftPeriod = rng.uniform(6, 12)
        driftPhase = rng.uniform(0, 2 * PortableMath.pi)
        driftOffset = rng.uniform(2, 5)
        driftOffsetPeriod = rng.uniform(4, 9)
    }

    /// Centre of the slow mover at time `t`.
    func moverCenter(at t: Double) -> (x: Double, y: Double) {
        (moverStartX + moverSpeed * t, moverY + moverBob * PortableMath.sin(moverBobOmega * t))
    }

    /// The lamp's extra gain in frame `frame` (time `t`): base + swing · (0.65 sine + 0.35 flutter).
    func lampGain(frame: Int, t: Double) -> Double {
        let flutter = 2 * Hash.unit(Hash.combine(lampKey, UInt64(truncatingIfNeeded: frame))) - 1
        let wave = PortableMath.sin(2 * PortableMath.pi * lampFrequency * t + lampPhase)
        return lampBaseGain + lampSwing * (0.65 * wave + 0.35 * flutter)
    }

    /// Global gain and offset at time `t`: output = input · gain + offset.
    func drift(at t: Double) -> (gain: Double, offset: Double) {
        let gain = 1 + driftAmplitude * PortableMath.sin(2 * PortableMath.pi * t / driftPeriod + driftPhase)
        let offset = driftOffset * PortableMath.sin(2 * PortableMath.pi * t / driftOffsetPeriod)
        return (gain, offset)
    }

    /// Fills `curve` (256 entries) with the drift's grey-level mapping at time `t`.
    func fillToneCurve(_ curve: UnsafeMutableBufferPointer<UInt8>, at t: Double) {
        let (gain, offset) = drift(at: t)
        for v in 0..<256 { curve[v] = grey(Double(v) * gain + offset) }
    }

    // MARK: Drawing

    /// Brightens the lamp's patch: pixel · (1 + weight · gain).
    func drawLamp(frame: Int, t: Double, into plane: Plane) {
        let k = Int((lampGain(frame: frame, t: t) * 65536).rounded())
        lampWeights.withUnsafeBufferPointer { weights in
            var i = 0
            for row in lampRows {
                let line = plane.row(row)
                for column in lampColumns {
                    let p = Int(line[column])
                    line[column] = UInt8(clamping: p + (p * Int(weights[i]) * k) >> 24)
                    i += 1
                }
            }
        }
    }

    /// Adds the slow mover's soft shadow (or glow).
    func drawMover(t: Double, into plane: Plane) {
        let c = moverCenter(at: t)
        let box = SceneRect(centerX: c.x, centerY: c.y, width: 2 * moverRadiusX, height: 2 * moverRadiusY)
        let span = box.pixelSpan(width: plane.width, height: plane.height)
        let sx = 1 / (moverRadiusX * moverRadiusX), sy = 1 / (moverRadiusY * moverRadiusY)
        moverProfile.withUnsafeBufferPointer { profile in
            for row in span.rows {
                let line = plane.row(row)
                let dy = Double(row) + 0.5 - c.y
                let ry = dy * dy * sy
                if ry >= 1 { continue }
                for column in span.columns {
                    let dx = Double(column) + 0.5 - c.x
                    let rho2 = dx * dx * sx + ry
                    if rho2 >= 1 { continue }
                    line[column] = UInt8(clamping: Int(line[column]) + Int(profile[Int(rho2 * 1024)]))
                }
            }
        }
    }
}
