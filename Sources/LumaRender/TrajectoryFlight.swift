import Foundation
import LumaAnalysis
import LumaRegression

/// A trajectory's flight as its time fit describes it: launch (the fit's velocity at its first
/// point) and apex (the top of the fitted parabola, when it falls within the flight). Speeds are in
/// frame widths per second and angles in degrees above the horizontal, measured in pixels, so a
/// non-square frame does not bend them.
public struct TrajectoryFlight: Sendable {
    /// Degrees above the horizontal at launch (negative: thrown downwards).
    public var launchAngle: Double
    /// Frame widths per second at launch.
    public var launchSpeed: Double
    /// Seconds after the first point, and the normalized position, of the top of the path; `nil`
    /// when the path has no top within the flight (it only rises or only falls).
    public var apex: (seconds: Double, x: Double, y: Double)?

    /// The flight of `fit` over `span` seconds in a `width × height` frame; `nil` without a drawable fit.
    public init?(_ fit: PathTimeFit?, span: Double, width: Int, height: Int) {
        guard let fit, fit.isDrawable else { return nil }
        let aspect = Double(height) / Double(max(width, 1))
        let (vx, vy) = (fit.x[1], fit.y[1] * aspect)
        launchAngle = atan2(vy, vx) * 180 / .pi
        launchSpeed = (vx * vx + vy * vy).squareRoot()
        let top = fit.y[2] < 0 ? -fit.y[1] / (2 * fit.y[2]) : -1
        if top >= 0 && top <= span {
            let p = fit.position(at: top)
            apex = (top, p.x, p.y)
        } else {
            apex = nil
        }
    }
}
