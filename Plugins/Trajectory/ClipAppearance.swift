import LumaImaging

/// What the balls of one clip look like, learnt from its best-fitting paths, and how far a path's
/// appearance is from it: the four cues of ``PathAppearance`` combined per clip.
///
/// The calibration follows the study of the shared clips: the third of the clip's paths that fit a
/// ball's flight best (by ``FlightConfidence/Geometry/product``) set the clip's ball polarity (the
/// weighted sign of their polarity, when two thirds of the weight agree), its ball radius and its
/// ball edge width (each the lower third of theirs: a shadow among them is larger and softer than
/// its ball, never smaller and sharper).
///
/// Each cue gives evidence, 0…1, that a path is not a ball: the other polarity; a disc larger than
/// the clip's balls; an edge wider than theirs; flying in lockstep with a path that looks more like
/// a ball. No cue decides alone (a dark ball on a light shirt has its shadow's polarity): the
/// confidence is multiplied by `exp(−weight · (size + edge) − lockstepWeight · lockstep)`
/// (``factor(_:)``), lockstep counting only for the copy of the pair (the larger or softer one, or
/// the darker beside a brighter one).
///
/// The clip's polarity is learnt and its evidence measured (`scripts/trajectory-cues`) but not
/// multiplied in: where shadows fit as well as balls (the `crowded` scenes) the best-fitting third
/// is half shadows and sets the clip's polarity to theirs; multiplied in, it took the crowded
/// floor scenes from 2 throws found of 16 to 0 and changed nothing on the shared real clips
/// (measured 2026-12-02, `TrajectoryDesignTests`). Polarity decides only relatively, inside a
/// lockstep pair.
struct ClipAppearance: Sendable, Equatable {
    /// +1 for bright balls, −1 for dark ones; nil when the best-fitting paths disagree.
    var polarity: Double?
    var radius: Double
    var edgeWidth: Double

    /// Paths needed before the clip is calibrated.
    static let leastPaths = 3

    /// The calibration from paths' geometric scores and appearances; nil with too few paths.
    init?(_ paths: [(geometric: Double, appearance: PathAppearance)]) {
        let usable = paths.filter { $0.appearance.profiled > 0 && $0.geometric > 0 }
        guard usable.count >= Self.leastPaths else { return nil }
        let best = usable.sorted { $0.geometric > $1.geometric }.prefix(max(Self.leastPaths, usable.count / 3))
        var bright = 0.0, total = 0.0
        for p in best {
            total += p.geometric
            if p.appearance.polarity > 0 { bright += p.geometric }
        }
        polarity = bright >= 2 * total / 3 ? 1 : bright <= total / 3 ? -1 : nil
        radius = Self.lowerThird(best.map(\.appearance.radius))
        edgeWidth = Self.lowerThird(best.map(\.appearance.edgeWidth))
    }

    private static func lowerThird(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[(sorted.count - 1) / 3]
    }

    /// Evidence from each cue that a path is not one of the clip's balls, 0…1.
    struct Evidence: Sendable, Equatable {
        var polarity = 0.0, size = 0.0, edge = 0.0, lockstep = 0.0
        /// The evidence of the cues of a path's own shape: its size and its edge.
        var own: Double { size + edge }
        /// Every cue's evidence, as the figures print it.
        var total: Double { polarity + own + lockstep }
    }

    /// A path of the other polarity, by how clearly it is (the study's width, 0.08 in log luma).
    func polarityEvidence(_ a: PathAppearance) -> Double {
        guard let polarity, a.polarity * polarity < 0 else { return 0 }
        let z = a.polarity / 0.08
        return 1 - PortableMath.exp(-z * z)
    }

    /// A disc larger than the clip's balls: none up to 1.3 of their radius, full from 1.5 (the court's
    /// balls, nearer the camera in some shots, measure up to 1.27).
    func sizeEvidence(_ a: PathAppearance) -> Double {
        guard a.profiled > 0, radius > 0 else { return 0 }
        return Self.ramp(a.radius / radius, from: Self.size.lowerBound, to: Self.size.upperBound)
    }

    /// An edge wider than the clip's balls': none up to 1.8 times theirs, full from 2.8 times (on the
    /// shared juggling clip the balls' edges, blurred by their motion, are up to 2.3 times the clip's).
    func edgeEvidence(_ a: PathAppearance) -> Double {
        guard a.profiled > 0, edgeWidth > 0 else { return 0 }
        return Self.ramp(a.edgeWidth / edgeWidth, from: Self.edge.lowerBound, to: Self.edge.upperBound)
    }

    /// Where the size and edge evidence rise from none to full, as ratios to the clip's balls.
    static let size = 1.3...1.5
    static let edge = 1.8...2.8

    /// How much each unit of a path's size and edge evidence costs: one cue alone leaves 0.55 of the
    /// confidence (below 0.8, above 0.5), both 0.30 (chosen on the figures of `scripts/trajectory-cues`).
    static let weight = 0.6
    /// What lockstep costs: it is itself two cues (a copy of another path, and the one of the two
    /// that looks less like a ball), so it leaves 0.18, as version 3's first shadow rule left 0.1.
    static let lockstepWeight = 1.7

    /// The evidence of the cues a path shows on its own (lockstep needs its partner). Its size counts
    /// only where perspective cannot explain it (``sizeSpeaks(_:besideBall:)``): `besideBall` tells
    /// whether a disc of the clip's ball size flies at the same time.
    func evidence(_ a: PathAppearance, besideBall: Bool = true) -> Evidence {
        Evidence(polarity: polarityEvidence(a), size: sizeSpeaks(a, besideBall: besideBall) ? sizeEvidence(a) : 0, edge: edgeEvidence(a))
    }

    /// Whether a path's size is evidence against it. A ball nearer the camera is larger (the court's and
    /// free throw's balls vary by 1.4–2.4 times the clip's smallest), so a larger disc alone says
    /// nothing: it counts when a disc of the clip's ball size flies over the same frames (a shadow
    /// beside its ball; the juggler's balls) or when its edge is also wider than the balls' (a
    /// penumbra, a blurred hand), since distance scales a disc but not the width of its edge.
    func sizeSpeaks(_ a: PathAppearance, besideBall: Bool) -> Bool {
        besideBall || edgeEvidence(a) > 0
    }

    /// Whether a disc of `radius` looks like one of the clip's balls by size.
    func isBallSized(_ radius: Double) -> Bool { radius > 0 && radius <= Self.size.lowerBound * self.radius }

    /// What a path's confidence is multiplied by.
    static func factor(_ e: Evidence) -> Double { PortableMath.exp(-weight * e.own - lockstepWeight * e.lockstep) }

    static func ramp(_ v: Double, from a: Double, to b: Double) -> Double { min(1, max(0, (v - a) / (b - a))) }
}
