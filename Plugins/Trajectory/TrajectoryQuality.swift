import LumaImaging

/// When a track is a trajectory worth reporting, and how confident we are in it.
///
/// Vision reports any parabola, straight lines included, and leaves the rest to the app. We ask
/// more of a path before reporting it, because a ball carried by hand also moves smoothly for a
/// while: a thrown object's path is one parabola *under gravity*, so its vertical acceleration
/// must be downwards and of a plausible size for its size. Gravity in pixels depends on how far
/// away the object is, but so does its radius: `g / r` is 9.81 m/s² over the ball's physical
/// radius, about 80–500 s⁻² for anything from a table-tennis ball to a basketball, whatever the
/// camera (our synthetic balls go down to 44). A wide margin around that, widened by the
/// uncertainty of a short fit, rejects straight and upward-curving motion but not a throw.
struct TrajectoryQuality: Sendable {
    /// Centroid scatter expected from measurement alone (`expectedScatter`), frame pixels, grows
    /// with the processing factor (coarser pixels), the noise and the object's size.
    let processingFactor: Int
    /// The longer side of the frame, pixels: sets the weakest gravity believed (see `isBallistic`).
    let frameSize: Int
    /// Sensor noise σ in the shrunk frame, grey levels: noisier frames scatter centroids more.
    var noise = 2.0

    /// `g / r` bounds, s⁻² (see the type's discussion).
    static let gravityPerRadius: ClosedRange<Double> = 30...1500

    func expectedScatter(radius: Double) -> Double {
        Double(processingFactor) * (0.3 + 0.04 * noise) + 0.1 * radius
    }

    /// 0...1 from the fit's scatter relative to the expected one, and the number of points: a
    /// perfect fit of five points is still only half-trusted.
    func confidence(_ fit: BallisticFit, radius: Double) -> Double {
        let ratio = fit.rms / (2 * expectedScatter(radius: radius))
        let r2 = ratio * ratio
        let fitScore = 1 / (1 + r2 * r2)
        let countScore = 1 - PortableMath.exp(-Double(fit.count - 4) / 1.5)
        return max(0, min(1, fitScore * countScore))
    }

    /// Whether the path looks thrown: falls with plausible gravity and really moves.
    func isBallistic(_ track: Track, radius: Double) -> Bool {
        guard let fit = track.fit else { return false }
        // Lenient above (a fast fit may overshoot), strict below: the fall must be clear of the
        // bound by two standard errors, because slow drifting blobs curve a little by chance,
        // while a real throw falls many standard errors. Never weaker than a frame 100 m across
        // would show (0.1 × the frame size per s²): a tiny blob's g / r bound alone is too weak.
        let g = fit.acceleration, error = fit.accelerationError
        let weakest = max(Self.gravityPerRadius.lowerBound * radius, 0.1 * Double(frameSize))
        guard g - 2 * error >= weakest,
              g <= Self.gravityPerRadius.upperBound * radius + 2.5 * error else { return false }
        // It must really move, well beyond its own jitter: a blob that stays put (a flickering
        // light, a ghost in the background) fits a parabola perfectly. Measured along the fitted
        // path, because a short hop goes up and down more than it goes sideways.
        let k = Double(processingFactor)
        let travelled = fit.distanceTravelled(over: track.points[...])
        return travelled >= max(4 * k, 0.75 * radius, 10 * fit.robustScatter)
    }
}
