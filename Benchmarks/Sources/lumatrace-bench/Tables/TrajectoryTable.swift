/// The trajectory-analyzer table of docs/speed.md, from `trajectory --json` lines.
enum TrajectoryTable {
    /// The caption and the table: one row per input (a real clip at a size) and design, in the
    /// order measured.
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
            rows.append(["`\(try r.string("input"))` \(dimensions(try r.int("width"), try r.int("height")))", try r.string("design"),
                         significant(analyzer), significant(try r.object("decode_analyze").double("fps")), try peer("mog2"), try peer("diff3"),
                         try memory(r), try floors(r)])
        }
        let header = ["input", "design", "analyzer frames/s", "decode + analyze", "OpenCV MOG2 + findContours",
                      "OpenCV 3-frame diff + connectedComponentsWithStats", "analyzer's peak RSS over a stream", "floor"]
        let designs = Set(rows.map { $0[1] })
        return "Frames/s, \(provenance.caption)"
            + (designs.count > 1 ? "; the OpenCV peers ran once per input, and every design's ratios are to the same figures" : "")
            + ":\n\n" + markdownTable(header, rows)
    }

    /// The memory measurement of the line, each stream as "1 min: 5.2 MiB" (the analyzer's share
    /// of the child's peak RSS); empty for a line without one (every input but court-720p).
    static func memory(_ r: ResultFields) throws(TablesError) -> String {
        guard r.value["memory"] != nil else { return "" }
        var cells: [String] = []
        for stream in try r.objects("memory") {
            cells.append("\(try stream.int("minutes")) min: \(fixed(Double(try stream.int("analyzer_kib")) / 1024, 1)) MiB")
        }
        return cells.joined(separator: ", ")
    }

    /// The floors of the line, each as "≥ 300 frames/s: missed" (prefixed with its metric when it
    /// is not the analyzer's frames/s); one that judges the input only with another design (its
    /// `applies` is false) as "≥ 300 frames/s: not judged (would miss)". "none" for a line no
    /// floor judged.
    static func floors(_ r: ResultFields) throws(TablesError) -> String {
        var cells: [String] = []
        for (metric, check) in r.optionalMembers("floors") ?? [] {
            let value = try check.double("target"), comparison = try check.string("comparison")
            let symbol = comparison == ">=" ? "≥" : comparison == "<=" ? "≤" : comparison
            let unit = metric.hasSuffix("_fps") ? " frames/s" : ""
            let pass = try check.bool("pass")
            let verdict = check.optionalBool("applies") ?? true ? (pass ? "met" : "**missed**")
                : "not judged (would \(pass ? "meet" : "miss"))"
            cells.append((metric == "analyzer_fps" ? "" : metric + " ") + "\(symbol) \(shortest(value))\(unit): \(verdict)")
        }
        return cells.isEmpty ? "none" : cells.joined(separator: "; ")
    }
}
