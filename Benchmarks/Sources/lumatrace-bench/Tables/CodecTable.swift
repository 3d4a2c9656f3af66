/// The README's recording-and-decoding table, from `codec --json` lines.
enum CodecTable {
    /// What the table reads of a codec line.
    struct Record: Decodable {
        struct Codec: Decodable {
            let bytes: Int
            let recordMbps: Double?
            let decodeMbps: Double
        }
        let input: String
        let source: String
        let scene: String?
        let width: Int
        let height: Int
        let frames: Int
        let rawBytes: Int
        let memcpyMbps: Double
        let lumatrace: Codec
        let ffv1: Codec
        let x264: Codec
        let fasterPeer: String
        let decodeVsFasterPeer: Double

        /// "`opencv-vtest-pedestrians` 768×576, 795 frames" or "synthetic `mixed` 1920×1080, 120 frames".
        var label: String {
            let name = scene.map { "synthetic `\($0)`" } ?? "`\(source.split(separator: "/").first ?? Substring(source))`"
            return "\(name) \(dimensions(width, height)), \(frames) frames"
        }

        /// "62.9 MB (5.59)": megabytes and raw bytes ÷ file bytes.
        func size(_ codec: Codec) -> String { "\(fixed(Double(codec.bytes) / 1e6, 1)) MB (\(fixed(Double(rawBytes) / Double(codec.bytes), 2)))" }
    }

    /// The caption and the table: real clips first, then synthetic scenes, each in the order measured.
    static func block(_ lines: [ResultLine], provenance: TableProvenance) throws(TablesError) -> String {
        var records: [Record] = []
        for line in lines { records.append(try line.decode(Record.self)) }
        let ordered = records.filter { $0.scene == nil } + records.filter { $0.scene != nil }
        let rows = ordered.map { r -> [String] in
            let peer = r.fasterPeer == "ffv1" ? r.ffv1 : r.x264
            return [r.label, r.size(r.lumatrace), r.size(r.ffv1), r.size(r.x264),
                    fixed(r.lumatrace.recordMbps ?? .nan, 0), fixed(r.lumatrace.decodeMbps, 0),
                    "\(fixed(r.decodeVsFasterPeer, 1))× (\(r.fasterPeer == "ffv1" ? "FFV1" : "x264") \(fixed(peer.decodeMbps, 0)) MB/s)",
                    fixed(r.memcpyMbps, 0)]
        }
        let header = ["input", "Lumatrace size (ratio)", "FFV1 -level 3", "x264 -qp 0", "record MB/s", "decode MB/s",
                      "decode ÷ faster peer", "memcpy MB/s"]
        return "Sizes and speeds, \(provenance.caption):\n\n" + markdownTable(header, rows)
    }
}
