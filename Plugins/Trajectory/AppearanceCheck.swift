import LumaAnalysis
import LumaImaging

/// Looks inside each moving blob, at full resolution, for the disc a ball makes: the second stage
/// of "motion proposes, appearance decides".
///
/// A blob is where the frame differs from the background, and a ball rarely moves alone: its
/// shadow on the wall, the hand that throws it, a body behind it move too, and their pixels join
/// the ball's in one blob whose centroid is none of them. Where a blob is clearly larger than the
/// round, sharp-edged disc inside it, the detection takes that disc's sub-pixel centre and radius.
/// A blob that is itself one disc keeps its centroid, which is as good (the plain synthetic throws
/// lose a few when every detection moves to its disc).
///
/// The disc must be a ball's (``looksLikeBall(_:)``), at least ``smallestShare`` of the blob's
/// radius (a ball, not a speck of the wall's texture), and mostly on moving pixels
/// (``leastSupport``): a ball-shaped mark on the still wall inside a large blob is not the ball.
///
/// Not required: that the disc stands out from the ring around it by a share of the blob's
/// difference from the background. Asking 0.6 of it kept 5 more plain synthetic throws and found
/// every throw of `basketball-court-shots`, but lost 9 of the 28 juggling throws (the balls in
/// front of the juggler's moving body stand out little from it); measured 2026-11-26.
struct AppearanceCheck {
    /// Smallest disc radius looked for, as a fraction of the blob's: a ball merged with its own
    /// shadow (1.3–1.6 of its radius, offset by 1.2–2) makes a blob up to about twice its radius.
    static let smallestShare = 0.45
    /// Largest disc radius, as a fraction of the blob's, that counts as the blob *holding* a disc
    /// rather than *being* one.
    static let heldShare = 0.8
    /// Fraction of the pixels under the disc (inside 0.8 of its radius) that must differ from the
    /// background.
    static let leastSupport = 0.5

    private let finder = DiscFinder()

    /// A disc that reads as a ball: a sharp edge, round, an edge on most rays (measured on the
    /// crowded synthetic scenes, `AppearanceStageTests`).
    static func looksLikeBall(_ d: Disc) -> Bool { d.sharpness >= 0.4 && d.roundness >= 0.8 && d.coverage >= 0.7 }

    /// `detection`, with the centre and radius of the ball it holds when it is a larger blob
    /// around one. `allowed` is the range of radii followed, frame pixels; `support` gives the
    /// fraction of moving pixels under a disc.
    func refine(_ detection: Detection, in frame: Frame, radius allowed: ClosedRange<Double>, support: (Disc) -> Double) -> Detection {
        guard !detection.touchesEdge, detection.radius >= 2 else { return detection }
        let window = PixelRect(x0: max(0, Int(detection.left)), y0: max(0, Int(detection.top)),
                               x1: min(frame.width, Int(detection.right.rounded(.up))),
                               y1: min(frame.height, Int(detection.bottom.rounded(.up))))
        let lower = max(1.5, allowed.lowerBound, Self.smallestShare * detection.radius)
        let upper = max(lower, min(allowed.upperBound, 1.2 * detection.radius))
        guard window.width > 0, window.height > 0 else { return detection }
        // The strongest ball-like disc of the blob (the search may return the disc of ball and
        // shadow together first; it does not look like a ball).
        let discs = finder.findAll(in: GrayImage(frame), window: window, radius: lower...upper)
        guard let ball = discs.first(where: { disc in
            Self.looksLikeBall(disc) && disc.radius >= Self.smallestShare * detection.radius && disc.radius <= 1.15 * upper
                && support(disc) >= Self.leastSupport
        }), ball.radius <= Self.heldShare * detection.radius else { return detection }
        var refined = detection
        (refined.x, refined.y, refined.radius) = (ball.x, ball.y, ball.radius)
        return refined
    }
}
