/// The README's trajectory-analyzer table, from `trajectory --json` lines.
enum TrajectoryTable {
    /// The caption and the table, one row per size in the order measured.
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
            rows.append([dimensions(try r.int("width"), try r.int("height")), significant(analyzer),
                         significant(try r.object("decode_analyze").double("fps")), try peer("mog2"), try peer("diff3")])
        }
        let header = ["size", "analyzer frames/s", "decode + analyze", "OpenCV MOG2 + findContours",
                      "OpenCV 3-frame diff + connectedComponentsWithStats"]
        return "Frames/s, \(provenance.caption):\n\n" + markdownTable(header, rows)
    }
}
