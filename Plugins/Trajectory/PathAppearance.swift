import LumaImaging

/// What a path looks like, point by point, summed up: the four cues that tell a ball from its
/// shadow (issue 57), each measured on its own so each can be shown to separate.
///
/// - **polarity**: the median log of the luma inside the disc over the background's (above 0
///   brighter than what it passes, below 0 darker, as a shadow is);
/// - **size**: the median radius of its discs across the motion, frame pixels (a soft shadow is
///   1.3–1.6 times its ball's);
/// - **edge**: the median width of their edges across the motion, frame pixels (a ball's edge is
///   sharp, a penumbra is not);
/// - **lockstep**: whether it is a scaled, shifted copy of another path over the same frames (a
///   shadow flies with its ball), found by ``lockstep(_:among:radius:)``.
struct PathAppearance: Sendable, Equatable {
    var polarity: Double
    var radius: Double
    var edgeWidth: Double
    /// Points whose profile was still kept.
    var profiled: Int

    /// Points looked at per path, evenly spread: the cost per path is bounded.
    static let samples = 24

    /// Measures `flight`'s appearance from the profiles `history` kept of its points.
    static func measure(_ flight: Flight, history: ProfileHistory) -> PathAppearance {
        let points = flight.points
        let stride = max(1, (points.count + samples - 1) / samples)
        var radii: [Double] = [], widths: [Double] = []
        radii.reserveCapacity(samples)
        widths.reserveCapacity(samples)
        for k in Swift.stride(from: 0, to: points.count, by: stride) {
            let p = points[k]
            guard let profile = history.profile(frame: p.frame, x: p.x, y: p.y) else { continue }
            let v = flight.path.velocity(at: p.time)
            let axis = DiscProfile.axis(across: v.x, v.y)
            radii.append(profile.radius[axis])
            widths.append(profile.edgeWidth[axis])
        }
        guard !radii.isEmpty else { return PathAppearance(polarity: flight.logLumaRatio, radius: flight.radius, edgeWidth: 0, profiled: 0) }
        return PathAppearance(polarity: flight.logLumaRatio, radius: Median.of(radii), edgeWidth: Median.of(widths), profiled: radii.count)
    }

    /// The paths among `others` that `flight` flies in lockstep with, in their order: over the
    /// frames both have a point in (at least four, and half of `flight`'s), the other's points are
    /// `flight`'s scaled by 0.67–1.5 and shifted, within 0.6 of a radius (or three pixels), and the
    /// shift is half a radius to ``reach`` radii. Two balls thrown alike are no such copy: their
    /// offset grows with time, which a scale cannot make.
    static func lockstep(_ flight: Flight, among others: [Flight], radius r: Double) -> [Int] {
        others.filter { other in
            guard other.serial != flight.serial, let fit = SimilarityFit(flight, other) else { return false }
            return fit.scale >= 0.67 && fit.scale <= 1.5 && fit.rms <= max(3, 0.6 * r) && fit.shift >= 0.5 * r && fit.shift <= reach * r
        }.map(\.serial)
    }

    /// How far from its ball a shadow may fly, in ball radii.
    static let reach = 8.0
}

/// The least-squares fit of one path's points as a scaled and shifted copy of another's, over the
/// frames both have a point in: `b ≈ scale · a + t`.
struct SimilarityFit {
    var scale: Double
    /// Root-mean-square distance of `b`'s points from the copy, pixels.
    var rms: Double
    /// Mean distance between the two paths' points, pixels.
    var shift: Double

    init?(_ a: Flight, _ b: Flight) {
        var ax: [Double] = [], ay: [Double] = [], bx: [Double] = [], by: [Double] = []
        var i = 0, j = 0
        let p = a.points, q = b.points
        while i < p.count && j < q.count {
            if p[i].frame == q[j].frame {
                ax.append(p[i].x); ay.append(p[i].y); bx.append(q[j].x); by.append(q[j].y)
                i += 1; j += 1
            } else if p[i].frame < q[j].frame { i += 1 } else { j += 1 }
        }
        guard ax.count >= max(4, p.count / 2) else { return nil }
        let n = Double(ax.count)
        let max_ = ax.reduce(0, +) / n, may = ay.reduce(0, +) / n, mbx = bx.reduce(0, +) / n, mby = by.reduce(0, +) / n
        var cross = 0.0, spread = 0.0
        for k in ax.indices {
            cross += (ax[k] - max_) * (bx[k] - mbx) + (ay[k] - may) * (by[k] - mby)
            spread += (ax[k] - max_) * (ax[k] - max_) + (ay[k] - may) * (ay[k] - may)
        }
        guard spread > 0 else { return nil }
        scale = cross / spread
        var squares = 0.0
        for k in ax.indices {
            let ex = bx[k] - mbx - scale * (ax[k] - max_), ey = by[k] - mby - scale * (ay[k] - may)
            squares += ex * ex + ey * ey
        }
        rms = (squares / n).squareRoot()
        shift = ((mbx - max_) * (mbx - max_) + (mby - may) * (mby - may)).squareRoot()
    }
}
