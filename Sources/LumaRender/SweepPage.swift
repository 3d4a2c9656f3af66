import LumaAnalysis
import LumaBase
import LumaEngine
import LumaRegression

/// One self-contained HTML page about a sweep (`sweep.html`), built as `lumatrace report`'s page
/// is: the plot inline as SVG, the best setting with the `replay` flags that reproduce it, and the
/// tables of `sweep.txt`. No scripts, no network.
public struct SweepPage {
    public var report: SweepReport

    public init(_ report: SweepReport) {
        self.report = report
    }

    /// The file names a sweep's pictures take in its output folder (`sweep.svg` only with trajectories).
    public static let fileNames = ["sweep.svg", "sweep.html"]

    /// With `--timings`, what the plot's second panel shows; empty without.
    private var timeFrontParagraph: String {
        let result = report.result
        guard let timeFront = result.timeFront else { return "" }
        let front = result.settings.indices.filter { timeFront[$0] }.map { result.settings[$0].id }
        return "<p>Right: every setting at its own analysis time per frame and its pooled F1; the line joins the time front "
            + "(\(escapeHTML(front.joined(separator: ", ")))): no other setting is as good in F1 and as fast, and better in one. "
            + "Times are measured on this run's machine and differ from run to run.</p>\n"
    }

    /// The page's bytes, the same for the same sweep (with `--timings`, the same but for its times).
    public var html: String {
        let result = report.result
        var body = "<h1>Sweep of \(escapeHTML(result.grid.name))</h1>\n"
        body += "<section id=\"best\"><h2>The best setting</h2>\n<p><code>\(escapeHTML(report.bestLine))</code></p>\n</section>\n"
        if let svg = SweepPlot(report).svg {
            let front = result.settings.indices.filter { result.front?[$0] == true }.map { result.settings[$0].id }
            body += "<section id=\"plot\"><h2>Precision against recall</h2>\n<p>Every setting at its pooled recall and precision; "
                + "the line joins the front (\(escapeHTML(front.joined(separator: ", ")))): no other setting is as good in both and better in one.</p>\n"
                + timeFrontParagraph
                + "<div class=\"plots\">\(svg)</div>\n</section>\n"
        }
        body += "<section id=\"tables\"><h2>The scores</h2>\n<pre>\(escapeHTML(report.text))</pre>\n</section>\n"
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Lumatrace sweep: \(escapeHTML(result.grid.name))</title>
            <style>
            body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1300px; }
            .plots svg { margin: 4px; border: 1px solid #ddd; max-width: 100%; height: auto; }
            pre { background: #f4f4f4; padding: 8px; overflow-x: auto; } code { word-break: break-all; }
            </style></head>
            <body>
            \(body)<p><small>Written by lumatrace \(LumatraceVersion.engine).</small></p>
            </body></html>

            """
    }
}
