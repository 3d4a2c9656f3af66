/// The README's external-protocol table, from `external --json` lines.
enum ExternalTable {
    /// What the table reads of an external line.
    struct Record: Decodable {
        struct Analyzer: Decodable {
            let name: String
            let fps: Double
            let vsSwift: Double
        }
        let width: Int
        let height: Int
        let frames: Int
        let analyzers: [Analyzer]
    }

    static func block(_ lines: [ResultLine], provenance: TableProvenance) throws(TablesError) -> String {
        var parts: [String] = []
        for line in lines {
            let r = try line.decode(Record.self)
            let rows = r.analyzers.map { [$0.name, fixed($0.fps, 1), fixed($0.vsSwift, 2) + "×"] }
            parts.append("Whole replays of \(dimensions(r.width, r.height)), \(r.frames) synthetic frames, \(provenance.caption):\n\n"
                         + markdownTable(["analyzer", "frames/s", "÷ Swift in process"], rows))
        }
        return parts.joined(separator: "\n\n")
    }
}
