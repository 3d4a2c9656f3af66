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

/// What the report says about an input (its frames are released before reporting).
struct InputSummary {
    let kind: InputKind
    let source: String
    let width: Int
    let height: Int
    let frameCount: Int
    let rawBytes: Int

    init(_ input: BenchInput) {
        kind = input.kind
        source = input.source
        width = input.width
        height = input.height
        frameCount = input.frameCount
        rawBytes = input.rawBytes
    }
}

/// One peer's samples on one input.
struct PeerSamples {
    var encode: [Double] = []
    var decode: [Double] = []
    var bytes = 0
}

/// What one measured input reports: its table, its targets and its JSON line.
protocol BenchResult {
    /// The input's name in the summary line (e.g. `vtest`, `720p`).
    var name: String { get }
    var checks: [TargetCheck] { get }
    func table() -> String
    func jsonLine() -> String
}

/// Prints, after every input's table, one line counting the targets met and naming the failing
/// ones (unless `jsonOnly`), then each result's JSON line.
func printSummary(_ results: [BenchResult], jsonOnly: Bool, nothingMeasured: String) {
    if !jsonOnly {
        let checks = results.flatMap { r in r.checks.filter(\.applies).map { (r.name, $0) } }
        let failed = checks.filter { !$0.1.pass }
        print(results.isEmpty ? nothingMeasured : "targets: \(checks.count - failed.count) of \(checks.count) pass"
              + (failed.isEmpty ? "" : "; failing: " + failed.map { "\($0.0) \($0.1.key)" }.joined(separator: ", ")))
        print("")
    }
    for result in results { print(result.jsonLine()) }
}

/// One of the issue's targets, checked on one input.
struct TargetCheck {
    let key: String
    let label: String
    let value: Double
    let target: Double
    /// `true` for "at least", `false` for "at most".
    let atLeast: Bool
    /// `false` when the target does not apply to this input (size targets are for the real clips).
    let applies: Bool

    var pass: Bool { atLeast ? value >= target : value <= target }
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

    /// The issue's targets. Throughputs are per core: everything here runs on one thread.
    var checks: [TargetCheck] {
        let real = input.kind != .synthetic
        return [
            TargetCheck(key: "decode_mbps", label: "Lumatrace decode, MB/s per core", value: megabytesPerSecond(decode),
                        target: 1000, atLeast: true, applies: true),
            TargetCheck(key: "decode_vs_faster_peer", label: "Lumatrace decode ÷ \(fasterPeer.rawValue) decode (faster peer)",
                        value: decodeVersusFasterPeer, target: 15, atLeast: true, applies: true),
            TargetCheck(key: "size_vs_ffv1", label: "Lumatrace size ÷ FFV1 size", value: sizeVersusFFV1,
                        target: 0.7, atLeast: false, applies: real),
            TargetCheck(key: "size_vs_x264", label: "Lumatrace size ÷ x264 lossless size", value: sizeVersusX264,
                        target: 1.4, atLeast: false, applies: real),
            TargetCheck(key: "record_mbps", label: "Lumatrace record, MB/s per core", value: megabytesPerSecond(record),
                        target: 250, atLeast: true, applies: true),
        ]
    }

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
        lines.append("   Lumatrace: one thread, in-process; record = RecordingWriter append ×\(input.frameCount) + close() to \(settings.scratchKind), "
                     + "\(chunkCount) chunk\(chunkCount == 1 ? "" : "s") (\(settings.chunkDescription)); decode = RecordingReader + one ChunkDecoder.")
        lines.append("   Peers: ffmpeg subprocess, -threads 1, wall clock of the process: encode includes reading the .y4m and ffmpeg start-up;")
        lines.append("   decode is `ffmpeg -i out.mkv -f null -` (start-up included).")
        lines.append("")
        lines.append("   key ratios (each against a baseline measured in this run):")
        var ratioRows: [[String]] = []
        ratioRows.append(["Lumatrace decode ÷ memcpy", fixed(decodeVersusMemcpy, 3) + "×", "", ""])
        for check in checks {
            let value = check.key.hasSuffix("_mbps") ? fixed(check.value, 1) + " MB/s"
                : check.key.hasPrefix("size") ? fixed(check.value, 3) : fixed(check.value, 2) + "×"
            let target = (check.atLeast ? "≥ " : "≤ ") + (check.key.hasSuffix("_mbps") ? fixed(check.target, 0) + " MB/s"
                : check.key.hasPrefix("size") ? fixed(check.target, 2) : fixed(check.target, 0) + "×")
            let verdict = check.applies ? (check.pass ? "PASS" : "FAIL")
                : "(target is for the real clips; \(check.pass ? "would pass" : "would fail"))"
            ratioRows.append([check.label, value, "target " + target, verdict])
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
        var fields: [(String, JSON)] = [
            ("input", .string(input.kind.rawValue)), ("source", .string(input.source)),
            ("width", .int(input.width)), ("height", .int(input.height)), ("frames", .int(input.frameCount)),
            ("raw_bytes", .int(input.rawBytes)), ("runs", .int(settings.runs)), ("zstd_level", .int(settings.level)),
            ("chunk_seconds", .number(settings.options.chunkDuration, 3)), ("chunks", .int(chunkCount)), ("lossless", .bool(true)),
            ("memcpy_mbps", .number(megabytesPerSecond(memcpy), 2)),
            ("lumatrace", codec(bytes: lumatraceBytes, encode: record, decode: decode, encodeName: "record")),
        ]
        for peer in Peer.allCases {
            let p = peers[peer]!
            fields.append((peer.rawValue, codec(bytes: p.bytes, encode: p.encode, decode: p.decode)))
        }
        fields.append(("faster_peer", .string(fasterPeer.rawValue)))
        fields.append(("decode_vs_memcpy", .number(decodeVersusMemcpy, 4)))
        fields.append(("targets", .object(checks.map { check in
            (check.key, .object([("value", .number(check.value, 4)), ("target", .number(check.target, 2)),
                                 ("at_least", .bool(check.atLeast)), ("applies", .bool(check.applies)), ("pass", .bool(check.pass))]))
        })))
        fields.append(("all_pass", .bool(checks.allSatisfy { !$0.applies || $0.pass })))
        return JSON.object(fields).text
    }
}

/// A minimal JSON value that keeps keys in the order given and prints numbers with fixed decimals.
indirect enum JSON {
    case int(Int)
    case number(Double, Int)
    case string(String)
    case bool(Bool)
    case array([JSON])
    case object([(String, JSON)])

    var text: String {
        switch self {
        case .int(let v): return String(v)
        case .number(let v, let decimals): return v.isFinite ? fixed(v, decimals) : "null"
        case .bool(let v): return v ? "true" : "false"
        case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
        case .string(let s): return JSON.quote(s)
        case .object(let fields): return "{" + fields.map { JSON.quote($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }

    private static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

// MARK: - Formatting

/// `value` with exactly `decimals` decimals.
func fixed(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }

/// An integer with thousands separators: 351,687,387.
func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = ""
    for (i, c) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return (value < 0 ? "-" : "") + out
}

/// Rows padded into columns, left-aligned except the columns in `rightAligned`.
func aligned(_ rows: [[String]], rightAligned: Set<Int>) -> [String] {
    let columns = rows.map(\.count).max() ?? 0
    var widths = [Int](repeating: 0, count: columns)
    for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
    return rows.map { row in
        row.enumerated().map { i, cell in
            let pad = String(repeating: " ", count: widths[i] - cell.count)
            return rightAligned.contains(i) ? pad + cell : cell + pad
        }.joined(separator: "   ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
    }
}
