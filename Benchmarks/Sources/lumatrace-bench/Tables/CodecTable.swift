/// The README's recording-and-decoding table, from `codec --json` lines.
enum CodecTable {
    /// The caption and the table: real clips first, then synthetic scenes, each in the order measured.
    static func block(_ lines: [ResultLine], provenance: TableProvenance) throws(TablesError) -> String {
        var real: [[String]] = [], synthetic: [[String]] = []
        for line in lines {
            let r = try line.fields()
            let rawBytes = Double(try r.int("raw_bytes"))
            /// "62.9 MB (5.59)": megabytes and raw bytes ÷ file bytes.
            func size(_ codec: String) throws(TablesError) -> String {
                let bytes = Double(try r.object(codec).int("bytes"))
                return "\(fixed(bytes / 1e6, 1)) MB (\(fixed(rawBytes / bytes, 2)))"
            }
            let scene = r.optionalString("scene")
            // "`opencv-vtest-pedestrians` 768×576, 795 frames" or "synthetic `mixed` 1920×1080, 120 frames".
            let clip = try r.string("source").split(separator: "/").first.map(String.init) ?? ""
            let name = scene.map { "synthetic `\($0)`" } ?? "`\(clip)`"
            let label = "\(name) \(dimensions(try r.int("width"), try r.int("height"))), \(try r.int("frames")) frames"
            let lumatrace = try r.object("lumatrace"), fasterPeer = try r.string("faster_peer")
            let peerDecode = try r.object(fasterPeer).double("decode_mbps")
            let row = [label, try size("lumatrace"), try size("ffv1"), try size("x264"),
                       fixed(lumatrace.value["record_mbps"]?.doubleValue ?? .nan, 0), fixed(try lumatrace.double("decode_mbps"), 0),
                       "\(fixed(try r.double("decode_vs_faster_peer"), 1))× (\(fasterPeer == "ffv1" ? "FFV1" : "x264") \(fixed(peerDecode, 0)) MB/s)",
                       fixed(try r.double("memcpy_mbps"), 0)]
            if scene == nil { real.append(row) } else { synthetic.append(row) }
        }
        let header = ["input", "Lumatrace size (ratio)", "FFV1 -level 3", "x264 -qp 0", "record MB/s", "decode MB/s",
                      "decode ÷ faster peer", "memcpy MB/s"]
        return "Sizes and speeds, \(provenance.caption(threads: "one coding thread (recording hashes its frames digest on a second)")):\n\n" + markdownTable(header, real + synthetic)
    }
}
