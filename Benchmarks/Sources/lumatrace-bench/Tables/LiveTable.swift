/// The README's live-analysis table, from `live --json` lines: latency from a frame's arrival to
/// its events in the log against the budget measured in the same runs.
enum LiveTable {
    static func block(_ lines: [ResultLine], provenance: TableProvenance) throws(TablesError) -> String {
        var parts: [String] = []
        for line in lines {
            let r = try line.fields()
            let p99 = try r.double("latency_p99_ms"), budget = try r.double("budget_ms")
            let rows = [[
                "\(dimensions(try r.int("width"), try r.int("height"))) at \(try r.int("rate")) frames/s, \(try r.int("seconds")) s",
                fixed(try r.double("latency_median_ms"), 2), fixed(p99, 2), fixed(try r.double("analysis_median_ms"), 2),
                fixed(budget, 2) + (p99 <= budget ? " (met)" : " (missed)"),
                "\(try r.int("largest_lag")) frames",
            ]]
            parts.append("Analysis while recording (differencing + trajectory), "
                         + "\(provenance.caption(threads: "reader, writer and analysis threads pinned to one core")):\n\n"
                         + markdownTable(["stream", "latency median ms", "p99 ms", "analyzers' median ms", "p99 budget ms", "largest lag"], rows))
        }
        return parts.joined(separator: "\n\n")
    }
}
