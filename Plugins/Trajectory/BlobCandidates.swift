import LumaAnalysis

/// Version 2's candidate stage (``MotionDetector``): each compact moving blob's ball, located at full
/// resolution, as a candidate; strongest contrast first, at most ``DiscCandidateFinder/perFrame``.
/// A blob cut by the region's edge is left out (its centre and radius are not its own). It measures
/// no brightness against the background (`lumaRatio` 1) and no shape (`elongation` 1).
struct BlobCandidates: CandidateStage {
    private(set) var detector: MotionDetector

    init(_ detector: MotionDetector) { self.detector = detector }

    mutating func candidates(in frame: Frame) -> [Candidate] {
        let whole = detector.detect(frame).filter { !$0.touchesEdge }
        // Sorted by contrast, then by place, so that equal contrasts keep one order on every run.
        let ranked = whole.sorted { ($0.contrast, -$0.y, -$0.x) > ($1.contrast, -$1.y, -$1.x) }
        return ranked.prefix(DiscCandidateFinder.perFrame).map { d in
            Candidate(x: d.x, y: d.y, radius: d.radius, score: d.contrast, contrast: d.contrast, lumaRatio: 1, elongation: 1)
        }
    }
}
