import LumaAnalysis
import LumaBase
import LumaRegression

/// A sweep seen at a glance (`sweep.svg`, and inline in `sweep.html`): each setting a labelled point
/// at its pooled recall (x) and precision (y), the Pareto front's settings red and joined by a line
/// in order of recall; with `--timings`, a second panel of F1 against analysis time per frame and
/// its own front. Deterministic bytes: points in grid order, coordinates in fixed decimals (the
/// second panel's times differ from run to run).
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
        plot.series = Self.series(points.map { ($0.recall, $0.precision) }, labels: points.map { result.settings[$0.index].id },
                                  front: frontPoints.map { ($0.recall, $0.precision) })
        guard let timePanel else { return plot.svg + "\n" }
        // Two panels side by side in one picture, each its own SVG placed by its x.
        let width = Int(plot.width) * 2
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(Int(plot.height))\" viewBox=\"0 0 \(width) \(Int(plot.height))\">"
            + plot.svg + "<svg x=\"\(Int(plot.width))\" " + timePanel.svg.dropFirst("<svg ".count)
            + "</svg>\n"
    }

    /// The second panel (`--timings`): each setting at its pooled analysis time per frame (x) and
    /// F1 (y), the time front's settings red and joined in order of time; `nil` without timings.
    private var timePanel: SVGPlot? {
        let result = report.result
        guard let front = result.timeFront, let times = result.pooledTimings else { return nil }
        let points = result.pooled.enumerated().compactMap { s, score in
            score.trajectories.map { (index: s, ms: times[s].millisecondsPerFrame, f1: $0.f1) }
        }
        var plot = SVGPlot(title: "\(result.grid.name): pooled F1 against analysis time", xLabel: "ms per frame (one instance)", yLabel: "F1",
                           yRange: 0...1)
        plot.xRange = 0...((points.map(\.ms).max() ?? 1) * 1.15)  // room right of the slowest for its label
        plot.width = 560
        plot.height = 420
        let frontPoints = points.filter { front[$0.index] }.sorted { ($0.ms, -$0.f1) < ($1.ms, -$1.f1) }
        plot.series = Self.series(points.map { ($0.ms, $0.f1) }, labels: points.map { result.settings[$0.index].id },
                                  front: frontPoints.map { ($0.ms, $0.f1) })
        return plot
    }

    /// The series of one panel: the front's line, every setting labelled, the front's points on top.
    private static func series(_ points: [(Double, Double)], labels: [String], front: [(Double, Double)]) -> [SVGPlot.Series] {
        [
            .init(color: RGBImage.Color(200, 40, 40), points: front.map { (x: $0.0, y: $0.1) }, line: true, label: "front"),
            .init(color: RGBImage.Color(60, 90, 160), points: points.map { (x: $0.0, y: $0.1) }, line: false, label: "settings", pointLabels: labels),
            .init(color: RGBImage.Color(200, 40, 40), points: front.map { (x: $0.0, y: $0.1) }, line: false, label: "front"),
        ]
    }
}
