import LumaAnalysis
import LumaEngine

extension SweepResult {
    /// What `--best` ranks settings by: a pooled score that `score` gives for the analyzer's
    /// events, higher being better. Trajectories (an analyzer whose events end paths, `pathEnd`)
    /// are scored by F1, recall and precision against the truth's ball segments; tracks (`box`
    /// events) by success AUC and precision at 20 px against its object tracks. Events of other
    /// shapes (differencing's blobs, rectangles' quadrilaterals) are only counted: nothing to rank.
    public enum Measure: String, Sendable, CaseIterable {
        case f1, recall, precision
        case successAUC = "success-auc"
        case precision20

        /// What the measures score, as the truth holds it.
        public enum Family: Sendable, CaseIterable {
            case trajectories, tracking

            /// The event shape an analyzer declares to be scored so.
            var shape: EventShape { self == .trajectories ? .pathEnd : .box }
            /// What of the truth the family is scored against, in words.
            public var truth: String { self == .trajectories ? "ball segments" : "object tracks" }
            public var measures: [Measure] { Measure.allCases.filter { $0.family == self } }
        }

        public var family: Family {
            switch self {
            case .f1, .recall, .precision: .trajectories
            case .successAUC, .precision20: .tracking
            }
        }

        /// The measure of `score`, or `nil` when the truth has none of the family's objects.
        public func of(_ score: SweepScore) -> Double? {
            switch self {
            case .f1: score.trajectories?.f1
            case .recall: score.trajectories?.recall
            case .precision: score.trajectories?.precision
            case .successAUC: score.tracking?.successAUC
            case .precision20: score.tracking?.precision20
            }
        }

        /// The measures a sweep of `analyzer` can rank by, from the event shapes it declares, in
        /// order of preference; `nil` when only a running instance knows its events (`external`).
        public static func available(for analyzer: AnalyzerDescriptor) -> [Measure]? {
            guard !analyzer.eventSchemas.isEmpty else { return nil }
            let shapes = analyzer.eventSchemas.compactMap(\.shape)
            return Family.allCases.filter { shapes.contains($0.shape) }.flatMap(\.measures)
        }

        /// The measure a sweep of `analyzer` ranks by: `asked` when the analyzer is scored by it
        /// (else refused, naming what it is scored by), or its first; `nil` when it has none.
        public static func chosen(_ asked: Measure?, for analyzer: AnalyzerDescriptor) throws(SweepError) -> Measure? {
            guard let available = available(for: analyzer) else { return asked ?? .f1 }
            guard let asked else { return available.first }
            guard available.contains(asked) else {
                throw .notMeasured(measure: asked.rawValue, analyzer: analyzer.name, measures: available.map(\.rawValue))
            }
            return asked
        }

        /// The measure once the scores are known: as ``chosen(_:for:)``, but for an analyzer that
        /// declares no kinds (`external`) and no measure asked, the family its events were scored
        /// as (`pooled`: trajectories first, then tracks), or `nil` when they were only counted.
        public static func chosen(_ asked: Measure?, for analyzer: AnalyzerDescriptor, scored pooled: [SweepScore]) throws(SweepError) -> Measure? {
            guard available(for: analyzer) == nil, asked == nil else { return try chosen(asked, for: analyzer) }
            if pooled.contains(where: { $0.trajectories != nil }) { return .f1 }
            if pooled.contains(where: { $0.tracking != nil }) { return .successAUC }
            return nil
        }
    }
}
