/// The README's tracking table, from `tracking --json` lines: success AUC and frames/s per tracker
/// on each real sequence and on average, the best AUC of each row in bold.
enum TrackingTable {
    /// One tracker's score on one line.
    struct Score {
        let tracker: String
        let method: String
        let auc: Double
        let fps: Double
    }

    static func block(_ lines: [ResultLine], provenance: TableProvenance) throws(TablesError) -> String {
        var sequences: [(fields: ResultFields, scores: [Score])] = []
        var average: [Score]?
        for line in lines {
            let r = try line.fields()
            var scores: [Score] = []
            for s in try r.objects("scores") {
                scores.append(Score(tracker: try s.string("tracker"), method: try s.string("method"), auc: try s.double("auc"), fps: try s.double("fps")))
            }
            if try r.string("input") == TrackingBench.averageName { average = scores } else { sequences.append((r, scores)) }
        }
        guard let average else { throw .missingAverage(place: lines[0].place) }
        let methods = average.map(\.method)
        /// "0.796, 1217", the AUC in bold when it is the row's best.
        func cells(_ scores: [Score]) -> [String] {
            let best = fixed(scores.map(\.auc).max() ?? 0, 3)
            return methods.map { method in
                guard let s = scores.first(where: { $0.method == method }) else { return "–" }
                let auc = fixed(s.auc, 3)
                return (auc == best ? "**\(auc)**" : auc) + ", " + fixed(s.fps, 0)
            }
        }
        var rows: [[String]] = []
        var synthetic = 0
        for (r, scores) in sequences {
            guard r.optionalBool("real") == true else {
                synthetic += 1
                continue
            }
            let size = dimensions(try r.int("width"), try r.int("height"))
            rows.append(["`\(try r.string("input"))` (\(try r.int("frames")) frames, \(size))"] + cells(scores))
        }
        let over = synthetic == 0 ? "average over these" : "average over these and \(synthetic) `synth tracking` scenes (first object)"
        rows.append([over] + cells(average))
        let header = ["sequence"] + average.map { $0.tracker.hasPrefix("Lumatrace") ? $0.tracker : $0.method }
        return "Success AUC, frames/s; \(provenance.caption):\n\n" + markdownTable(header, rows)
    }
}
