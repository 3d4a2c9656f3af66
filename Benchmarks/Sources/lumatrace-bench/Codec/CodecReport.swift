import Foundation

/// Everything measured on one input: the samples of every run, in seconds, and the file sizes.
struct InputResult {
    let input: InputSummary
    let settings: BenchSettings
    var memcpy: [Double] = []
    var record: [Double] = []
    var decode: [Double] = []
    var lumatraceBytes = 0
    var chunkCount = 0
    var peers: [Peer: PeerSamples] = [:]
}

/// What an input is, and its size: what the report says about it (its frames are released
/// before reporting).
struct InputSummary {
    let kind: InputKind
    /// The synthetic scene's kind (`mixed`); `nil` for a real clip.
    let scene: String?
    /// Human-readable origin: the clip's path, or the synthetic scene's settings.
    let source: String
    let width: Int
    let height: Int
    let frameCount: Int

    var rawBytes: Int { width * height * frameCount }
}

/// One peer's samples on one input.
struct PeerSamples {
    var encode: [Double] = []
    var decode: [Double] = []
    var bytes = 0
}

extension InputResult: BenchResult {
    var name: String { input.kind.rawValue }

    /// Megabytes (10^6 bytes) of raw frames per second at the median of `samples`.
    func megabytesPerSecond(_ samples: [Double]) -> Double { Double(input.rawBytes) / 1e6 / median(samples) }
    /// Frames per second at the median of `samples`.
    func framesPerSecond(_ samples: [Double]) -> Double { Double(input.frameCount) / median(samples) }
    /// Raw frame bytes ÷ file bytes.
    func ratio(_ bytes: Int) -> Double { Double(input.rawBytes) / Double(bytes) }

    /// The peer whose decode is fastest in this run (the harder baseline for Lumatrace).
    var fasterPeer: Peer {
        Peer.allCases.min { median(peers[$0]!.decode) < median(peers[$1]!.decode) }!
    }

    var decodeVersusMemcpy: Double { megabytesPerSecond(decode) / megabytesPerSecond(memcpy) }
    var decodeVersusFasterPeer: Double { megabytesPerSecond(decode) / megabytesPerSecond(peers[fasterPeer]!.decode) }
    var sizeVersusFFV1: Double { Double(lumatraceBytes) / Double(peers[.ffv1]!.bytes) }
    var sizeVersusX264: Double { Double(lumatraceBytes) / Double(peers[.x264]!.bytes) }

    /// The figures `Benchmarks/targets.json` may judge, in the order the report shows them.
    static let metricKeys = ["decode_mbps", "decode_vs_faster_peer", "size_vs_ffv1", "size_vs_x264", "record_mbps"]

    /// This input's figures under those keys. Throughputs are per core: everything here runs on one thread.
    var metrics: [Metric] {
        [
            Metric(key: "decode_mbps", label: "Lumatrace decode, MB/s per core", value: megabytesPerSecond(decode), unit: .megabytesPerSecond),
            Metric(key: "decode_vs_faster_peer", label: "Lumatrace decode ÷ \(fasterPeer.rawValue) decode (faster peer)",
                   value: decodeVersusFasterPeer, unit: .times),
            Metric(key: "size_vs_ffv1", label: "Lumatrace size ÷ FFV1 size", value: sizeVersusFFV1, unit: .fraction),
            Metric(key: "size_vs_x264", label: "Lumatrace size ÷ x264 lossless size", value: sizeVersusX264, unit: .fraction),
            Metric(key: "record_mbps", label: "Lumatrace record, MB/s per core", value: megabytesPerSecond(record), unit: .megabytesPerSecond),
        ]
    }

    var checks: [TargetCheck] { settings.targets.checks(metrics, input: name) }

    // MARK: - Table

    /// The human-readable report of this input: the table, then the key ratios with their targets.
    func table() -> String {
        var lines: [String] = []
        let mb = Double(input.rawBytes) / 1e6
        lines.append("== \(input.kind.rawValue): \(input.source)")
        lines.append("   \(input.width)x\(input.height), \(input.frameCount) frames, \(grouped(input.rawBytes)) bytes raw (\(fixed(mb, 1)) MB); "
                     + "median of \(settings.runs) run\(settings.runs == 1 ? "" : "s"); MB = 10^6 bytes of raw frames")
        lines.append("")
        let header = ["method", "size bytes", "ratio", "encode MB/s", "decode MB/s", "encode f/s", "decode f/s"]
        var rows: [[String]] = []
        rows.append(["memcpy (baseline)", grouped(input.rawBytes), fixed(1, 3),
                     fixed(megabytesPerSecond(memcpy), 1), fixed(megabytesPerSecond(memcpy), 1),
                     fixed(framesPerSecond(memcpy), 1), fixed(framesPerSecond(memcpy), 1)])
        rows.append(["Lumatrace (zstd \(settings.level))", grouped(lumatraceBytes), fixed(ratio(lumatraceBytes), 3),
                     fixed(megabytesPerSecond(record), 1), fixed(megabytesPerSecond(decode), 1),
                     fixed(framesPerSecond(record), 1), fixed(framesPerSecond(decode), 1)])
        for peer in Peer.allCases {
            let p = peers[peer]!
            rows.append([peer.label, grouped(p.bytes), fixed(ratio(p.bytes), 3),
                         fixed(megabytesPerSecond(p.encode), 1), fixed(megabytesPerSecond(p.decode), 1),
                         fixed(framesPerSecond(p.encode), 1), fixed(framesPerSecond(p.decode), 1)])
        }
        lines += aligned([header] + rows, rightAligned: Set(1..<header.count)).map { "   " + $0 }
        lines.append("")
        lines.append("   memcpy: one copy of every frame into a preallocated buffer (shown in both columns).")
        lines.append("   Lumatrace: one coding thread, in-process; record = RecordingWriter append ×\(input.frameCount) + close() to \(settings.scratchKind) "
                     + "(the frames digest hashed on a second thread), "
                     + "\(chunkCount) chunk\(chunkCount == 1 ? "" : "s") (\(settings.chunkDescription)); decode = RecordingReader + one ChunkDecoder.")
        lines.append("   Peers: ffmpeg subprocess, -threads 1, wall clock of the process: encode includes reading the .y4m and ffmpeg start-up;")
        lines.append("   decode is `ffmpeg -i out.mkv -f null -` (start-up included).")
        lines.append("")
        lines.append("   key ratios (each against a baseline measured in this run):")
        var ratioRows: [[String]] = []
        ratioRows.append(["Lumatrace decode ÷ memcpy", fixed(decodeVersusMemcpy, 3) + "×", "", ""])
        for check in checks {
            ratioRows.append([check.metric.label, check.metric.format(check.metric.value), check.requirement, check.verdict])
        }
        lines += aligned(ratioRows, rightAligned: [1]).map { "     " + $0 }
        return lines.joined(separator: "\n")
    }

    // MARK: - JSON

    /// One line of JSON with the medians, ratios and target verdicts of this input.
    func jsonLine() -> String {
        func codec(bytes: Int, encode: [Double], decode: [Double], encodeName: String = "encode") -> JSON {
            .object([
                ("bytes", .int(bytes)), ("ratio", .number(ratio(bytes), 4)),
                ("\(encodeName)_mbps", .number(megabytesPerSecond(encode), 2)), ("\(encodeName)_fps", .number(framesPerSecond(encode), 2)),
                ("decode_mbps", .number(megabytesPerSecond(decode), 2)), ("decode_fps", .number(framesPerSecond(decode), 2)),
            ])
        }
        var fields = settings.jsonHeader(.codec) + [
            ("input", .string(input.kind.rawValue)), ("source", .string(input.source)),
        ]
        if let scene = input.scene { fields.append(("scene", .string(scene))) }
        fields += [
            ("width", .int(input.width)), ("height", .int(input.height)), ("frames", .int(input.frameCount)),
            ("raw_bytes", .int(input.rawBytes)), ("zstd_level", .int(settings.level)),
            ("chunk_seconds", .number(settings.options.chunkDuration, 3)), ("chunks", .int(chunkCount)), ("lossless", .bool(true)),
            ("memcpy_mbps", .number(megabytesPerSecond(memcpy), 2)),
            ("lumatrace", codec(bytes: lumatraceBytes, encode: record, decode: decode, encodeName: "record")),
        ]
        for peer in Peer.allCases {
            let p = peers[peer]!
            fields.append((peer.rawValue, codec(bytes: p.bytes, encode: p.encode, decode: p.decode)))
        }
        fields.append(("faster_peer", .string(fasterPeer.rawValue)))
        fields.append(("decode_vs_faster_peer", .number(decodeVersusFasterPeer, 4)))
        fields.append(("decode_vs_memcpy", .number(decodeVersusMemcpy, 4)))
        fields += checks.jsonFields
        return JSON.object(fields).text
    }
}
