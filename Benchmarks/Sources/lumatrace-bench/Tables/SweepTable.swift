/// The sweep table of docs/speed.md, from `sweep --json` lines: each grid's sweep against its
/// separate replays, then the memory each instance adds.
enum SweepTable {
    static func block(_ lines: [ResultLine], provenance: TableProvenance) throws(TablesError) -> String {
        var rows: [[String]] = []
        var memory: [String] = []
        var jobs = 1
        for line in lines {
            let r = try line.fields()
            jobs = try r.int("jobs")
            let input = try r.string("input")
            if input == SweepMemoryResult.inputName {
                let bytes = try r.double("bytes_per_instance"), frame = try r.int("frame_bytes")
                let peaks = try r.objects("peaks").map { (p: ResultFields) throws(TablesError) -> String in
                    "\(try p.int("settings")) settings \(fixed(Double(try p.int("peak_hwm_kib")) / 1024, 1)) MiB"
                }
                memory.append("Peak memory of a trajectory sweep over \(try r.string("recording")): \(peaks.joined(separator: ", ")); "
                              + "each further instance \(grouped(Int(bytes.rounded()))) bytes (\(fixed(bytes / Double(frame), 2)) frames).")
            } else {
                rows.append([input, "\(try r.int("settings"))", fixed(try r.double("sweep_seconds"), 2), fixed(try r.double("separate_seconds"), 2),
                             fixed(try r.double("sweep_vs_separate"), 3)])
            }
        }
        return "A sweep against one replay per setting over the same corpus, \(provenance.caption(threads: "--jobs \(jobs)")):\n\n"
            + markdownTable(["grid", "settings", "sweep (s)", "separate replays (s)", "ratio"], rows)
            + (memory.isEmpty ? "" : "\n\n" + memory.joined(separator: "\n"))
    }
}
