/// Which observations reach the log: the user's `direction`, `minimumConfidence` and
/// `minimumLength`, and, with `filter=throw`, the business logic of Apple's sample app
/// "Detecting moving objects in a video":
///
/// - the trajectory moves from left to right (its first point is left of its last);
/// - it starts in the first half of the region of interest;
/// - it has at least 8 points ("the trajectory length increases to 8": a throw, not a twitch);
/// - its parabola opens downwards or is straight (`a ≤ 0` in y-up coordinates);
/// - its confidence is greater than 0.9.
///
/// Each condition narrows what the user's own options allow: `filter=throw` with
/// `direction=rightToLeft` finds right-to-left throws starting in the region's *right* half (the
/// sample's logic mirrored); with `direction=any` it means left to right.
struct ReportFilter: Sendable {
    let configuration: TrajectoryConfiguration
    /// The region of interest in frame pixels (left edge and width), for "the first half".
    let regionLeft: Double
    let regionWidth: Double

    /// The sample app's numbers.
    static let throwMinimumLength = 8
    static let throwMinimumConfidence = 0.9

    var direction: TrajectoryConfiguration.Direction {
        configuration.filter == .throw && configuration.direction == .any ? .leftToRight : configuration.direction
    }

    /// Whether an observation of `track` with this `confidence` and equation `a` is reported.
    func passes(_ track: Track, confidence: Double, equationA: Double) -> Bool {
        guard track.count >= configuration.minimumLength, confidence >= configuration.minimumConfidence else { return false }
        let first = track.first.x, last = track.last.x
        switch direction {
        case .any: break
        case .leftToRight: guard first < last else { return false }
        case .rightToLeft: guard first > last else { return false }
        }
        guard configuration.filter == .throw else { return true }
        let start = (first - regionLeft) / regionWidth
        let inStartingHalf = direction == .rightToLeft ? start > 0.5 : start < 0.5
        return inStartingHalf && track.count >= Self.throwMinimumLength && equationA <= 0
            && confidence > Self.throwMinimumConfidence
    }
}
