import LumaBase
import LumaOutput
import LumaRegression
import LumaRender

extension Sweep {
    /// Every file a sweep writes into its output folder.
    static let fileNames = SweepReport.fileNames + SweepPage.fileNames

    /// Writes `report`'s files into `folder`, puts the folder in place, and says what was `done`
    /// (`swept`, `merged`) and the best setting.
    static func write(_ report: SweepReport, into folder: OutputFolder, saying done: String) throws {
        let result = report.result
        try folder.write(Array(report.text.utf8), to: "sweep.txt")
        try folder.write(Array((report.json.serialized + "\n").utf8), to: "sweep.json")
        try folder.write(Array(report.csv.utf8), to: "sweep.csv")
        let pictures = try writePictures(report, into: folder)
        try folder.commit()
        print("\(done) \(Plural.count(result.settings.count, "setting")) over \(Plural.count(result.recordings.count, "recording")) "
              + "(\(Plural.count(result.passes, "replay")) of each) → \(folder.path)/sweep.txt, sweep.json, sweep.csv, " + pictures.joined(separator: ", "))
        print(report.bestLine)
    }

    /// Writes `sweep.svg` (when the settings have trajectories to plot) and `sweep.html` into
    /// `folder`; returns the names written.
    static func writePictures(_ report: SweepReport, into folder: OutputFolder) throws -> [String] {
        var names: [String] = []
        if let svg = SweepPlot(report).svg {
            try folder.write(Array(svg.utf8), to: "sweep.svg")
            names.append("sweep.svg")
        }
        try folder.write(Array(SweepPage(report).html.utf8), to: "sweep.html")
        return names + ["sweep.html"]
    }
}
