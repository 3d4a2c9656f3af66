/// The trajectory-analyzer table of docs/speed.md, from `trajectory --json` lines.
enum TrajectoryTable {
    /// The caption and the table: one row per input (a real clip at a size), in the order measured.
    static func block(_ lines: [ResultLine], provenance: TableProvenance) throws(TablesError) -> String {
        var rows: [[String]] = []
        for line in lines {
            let r = try line.fields()
            let analyzer = try r.object("analyzer").double("fps")
            /// "33.8 (5.0.0): analyzer 10.2×": the peer's frames/s, the OpenCV that ran it faster, and the ratio.
            func peer(_ key: String) throws(TablesError) -> String {
                let p = try r.object(key), fps = try p.double("fps")
                return "\(significant(fps)) (\(try p.string("opencv"))): analyzer \(significant(analyzer / fps))×"
            }
            rows.append(["`\(try r.string("input"))` \(dimensions(try r.int("width"), try r.int("height")))", significant(analyzer),
                         significant(try r.object("decode_analyze").double("fps")), try peer("mog2"), try peer("diff3"),
                         try floors(r)])
        }
        let header = ["input", "analyzer frames/s", "decode + analyze", "OpenCV MOG2 + findContours",
                      "OpenCV 3-frame diff + connectedComponentsWithStats", "floor"]
        return "Frames/s, \(provenance.caption):\n\n" + markdownTable(header, rows)
    }

    /// The floors that judged the line, each as "≥ 300 frames/s: missed" (prefixed with its metric
    /// when it is not the analyzer's frames/s); "none" for a line no floor judged.
    static func floors(_ r: ResultFields) throws(TablesError) -> String {
        var cells: [String] = []
        for (metric, check) in r.optionalMembers("floors") ?? [] {
            let value = try check.double("target"), comparison = try check.string("comparison")
            let symbol = comparison == ">=" ? "≥" : comparison == "<=" ? "≤" : comparison
            let unit = metric.hasSuffix("_fps") ? " frames/s" : ""
            let verdict = try check.bool("pass") ? "met" : "**missed**"
            cells.append((metric == "analyzer_fps" ? "" : metric + " ") + "\(symbol) \(shortest(value))\(unit): \(verdict)")
        }
        return cells.isEmpty ? "none" : cells.joined(separator: "; ")
    }
}
