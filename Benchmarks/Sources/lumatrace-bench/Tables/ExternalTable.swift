/// The README's external-protocol table, from `external --json` lines.
enum ExternalTable {
    static func block(_ lines: [ResultLine], provenance: TableProvenance) throws(TablesError) -> String {
        var parts: [String] = []
        for line in lines {
            let r = try line.fields()
            var rows: [[String]] = []
            for analyzer in try r.objects("analyzers") {
                rows.append([try analyzer.string("name"), fixed(try analyzer.double("fps"), 1), fixed(try analyzer.double("vs_swift"), 2) + "×"])
            }
            parts.append("Whole replays of \(dimensions(try r.int("width"), try r.int("height"))), \(try r.int("frames")) synthetic frames, "
                         + "\(provenance.caption):\n\n" + markdownTable(["analyzer", "frames/s", "÷ Swift in process"], rows))
        }
        return parts.joined(separator: "\n\n")
    }
}
