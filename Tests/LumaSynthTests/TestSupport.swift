import LumaSynth
import LumaTruth

/// A scene with test-friendly defaults: small frames keep debug-build tests fast.
func makeScene(
    _ kind: SceneKind, seed: UInt64 = 1, width: Int = 320, height: Int = 180, framesPerSecond: Int = 30,
    frames: Int = 150, noise: Double = 2
) throws -> SyntheticScene {
    try SyntheticScene(
        kind: kind,
        settings: SceneSettings(
            width: width, height: height, framesPerSecond: framesPerSecond, frameCount: frames, seed: seed,
            noise: noise))
}

/// Mean and standard deviation.
func meanAndDeviation(_ values: [Double]) -> (mean: Double, deviation: Double) {
    guard !values.isEmpty else { return (0, 0) }
    let mean = values.reduce(0, +) / Double(values.count)
    let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
    return (mean, variance.squareRoot())
}

extension SyntheticScene {
    var width: Int { settings.width }
    var height: Int { settings.height }

    /// Pixel (column, row) of a top-row-first buffer holding normalized lower-left point (x, y).
    func pixel(x: Double, y: Double) -> (column: Int, row: Int) {
        (min(width - 1, Int(x * Double(width))), min(height - 1, Int((1 - y) * Double(height))))
    }

    /// Continuous pixel position (top-left origin) of normalized lower-left point (x, y).
    func pixelPosition(x: Double, y: Double) -> (x: Double, y: Double) {
        (x * Double(width), (1 - y) * Double(height))
    }
}

extension BallSegment {
    var frames: [Int] { points.map { Int($0[0]) } }
}
