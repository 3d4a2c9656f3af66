/// The README's trajectory-analyzer table, from `trajectory --json` lines.
enum TrajectoryTable {
    /// What the table reads of a trajectory line.
    struct Record: Decodable {
        struct Rate: Decodable { let fps: Double }
        struct Peer: Decodable {
            let fps: Double
            /// The OpenCV version that ran this peer faster.
            let opencv: String
        }
        let width: Int
        let height: Int
        let analyzer: Rate
        let decodeAnalyze: Rate
        let mog2: Peer
        let diff3: Peer
    }

    /// The caption and the table, one row per size in the order measured.
    static func block(_ lines: [ResultLine], provenance: TableProvenance) throws(TablesError) -> String {
        var rows: [[String]] = []
        for line in lines {
            let r = try line.decode(Record.self)
            func peer(_ p: Record.Peer) -> String { "\(significant(p.fps)) (\(p.opencv)): analyzer \(significant(r.analyzer.fps / p.fps))×" }
            rows.append([dimensions(r.width, r.height), significant(r.analyzer.fps), significant(r.decodeAnalyze.fps), peer(r.mog2), peer(r.diff3)])
        }
        let header = ["size", "analyzer frames/s", "decode + analyze", "OpenCV MOG2 + findContours",
                      "OpenCV 3-frame diff + connectedComponentsWithStats"]
        return "Frames/s, \(provenance.caption):\n\n" + markdownTable(header, rows)
    }
}
