import LumaAnalysis
import LumaBase
import LumaRegression

/// A sweep seen at a glance (`sweep.svg`, and inline in `sweep.html`): each setting a labelled point
/// at its pooled recall (x) and precision (y), the Pareto front's settings red and joined by a line
/// in order of recall. Deterministic bytes: points in grid order, coordinates in fixed decimals.
public struct SweepPlot {
    public var report: SweepReport

    public init(_ report: SweepReport) {
        self.report = report
    }

    /// The settings with trajectories: index, recall, precision; in grid order.
    private var points: [(index: Int, recall: Double, precision: Double)] {
        report.result.pooled.enumerated().compactMap { s, score in
            score.trajectories.map { (s, $0.recall, $0.precision) }
        }
    }

    /// The plot as one SVG element; `nil` when no setting has trajectories (the truth has no ball segments).
    public var svg: String? {
        let result = report.result
        guard let front = result.front else { return nil }
        let points = self.points
        var plot = SVGPlot(title: "\(result.grid.name): pooled precision against recall, \(Plural.count(result.settings.count, "setting"))",
                           xLabel: "recall", yLabel: "precision", yRange: 0...1)
        plot.xRange = 0...1.1  // room right of recall 1 for a point's label
        plot.width = 560
        plot.height = 420
        let frontPoints = points.filter { front[$0.index] }.sorted { ($0.recall, -$0.precision) < ($1.recall, -$1.precision) }
        plot.series = [
            .init(color: RGBImage.Color(200, 40, 40), points: frontPoints.map { ($0.recall, $0.precision) }, line: true, label: "front"),
            .init(color: RGBImage.Color(60, 90, 160), points: points.map { ($0.recall, $0.precision) }, line: false, label: "settings",
                  pointLabels: points.map { result.settings[$0.index].id }),
            .init(color: RGBImage.Color(200, 40, 40), points: frontPoints.map { ($0.recall, $0.precision) }, line: false, label: "front"),
        ]
        return plot.svg + "\n"
    }
}
