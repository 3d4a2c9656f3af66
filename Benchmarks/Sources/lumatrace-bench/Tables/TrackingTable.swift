/// The README's tracking table, from `tracking --json` lines: success AUC and frames/s per tracker
/// on each real sequence and on average, the best AUC of each row in bold.
enum TrackingTable {
    /// What the table reads of a tracking line (a sequence's, or the average's).
    struct Record: Decodable {
        struct Score: Decodable {
            let tracker: String
            let method: String
            let auc: Double
            let fps: Double
        }
        let input: String
        let real: Bool?
        let width: Int?
        let height: Int?
        let frames: Int
        let scores: [Score]

        /// "0.796, 1217", the AUC in bold when it is the row's best.
        func cell(_ method: String, best: String) -> String {
            guard let s = scores.first(where: { $0.method == method }) else { return "–" }
            let auc = fixed(s.auc, 3)
            return (auc == best ? "**\(auc)**" : auc) + ", " + fixed(s.fps, 0)
        }

        var bestAUC: String { fixed(scores.map(\.auc).max() ?? 0, 3) }
    }

    static func block(_ lines: [ResultLine], provenance: TableProvenance) throws(TablesError) -> String {
        var records: [Record] = []
        for line in lines { records.append(try line.decode(Record.self)) }
        guard let average = records.first(where: { $0.input == TrackingBench.averageName }) else {
            throw .missingAverage(place: lines[0].place)
        }
        let sequences = records.filter { $0.input != TrackingBench.averageName }
        let synthetic = sequences.filter { $0.real != true }.count
        let methods = average.scores.map(\.method)
        let header = ["sequence"] + average.scores.map { $0.tracker.hasPrefix("Lumatrace") ? $0.tracker : $0.method }
        var rows = sequences.filter { $0.real == true }.map { r in
            ["`\(r.input)` (\(r.frames) frames, \(dimensions(r.width ?? 0, r.height ?? 0)))"] + methods.map { r.cell($0, best: r.bestAUC) }
        }
        let over = synthetic == 0 ? "average over these" : "average over these and \(synthetic) `synth tracking` scenes (first object)"
        rows.append([over] + methods.map { average.cell($0, best: average.bestAUC) })
        return "Success AUC, frames/s; \(provenance.caption):\n\n" + markdownTable(header, rows)
    }
}
