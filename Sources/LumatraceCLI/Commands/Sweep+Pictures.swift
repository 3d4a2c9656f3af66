import LumaOutput
import LumaRegression
import LumaRender

extension Sweep {
    /// Writes `sweep.svg` (when the settings have trajectories to plot) and `sweep.html` into
    /// `folder`; returns the names written.
    func writePictures(_ report: SweepReport, into folder: OutputFolder) throws -> [String] {
        var names: [String] = []
        if let svg = SweepPlot(report).svg {
            try folder.write(Array(svg.utf8), to: "sweep.svg")
            names.append("sweep.svg")
        }
        try folder.write(Array(SweepPage(report).html.utf8), to: "sweep.html")
        return names + ["sweep.html"]
    }
}
