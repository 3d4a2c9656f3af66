// `lumatrace-bench codec`: how fast Lumatrace records and decodes, and how small its files are,
// against memcpy, FFV1 and x264-lossless, on the same frames in one run.
import Foundation
import LumaFormat

enum CodecBench {
    /// The whole `codec` benchmark: every selected input, its table as it is measured (unless
    /// `--json`), then the targets' summary and one JSON line per input.
    static func run(settings: BenchSettings) throws {
        var settings = settings
        let results: [InputResult] = try Scratch.withFolder { scratch, kind in
            settings.scratchKind = kind
            let tools = try FFmpegTools.locate(scratch: scratch)
            log("lumatrace-bench codec: \(settings.runs) run\(settings.runs == 1 ? "" : "s") per measurement, zstd level \(settings.level), "
                + "\(settings.chunkDescription); scratch \(scratch)")
            return try measureEach(settings.inputs, jsonOnly: settings.jsonOnly) { kind in
                log("\(kind.rawValue): preparing frames")
                let prepared: BenchInput? = kind == .synthetic
                    ? try Inputs.synthetic(scratch: scratch)
                    : try Inputs.clip(kind, dataDirectory: settings.dataDirectory, scratch: scratch)
                guard let input = prepared else { return nil }
                defer { try? FileManager.default.removeItem(atPath: input.y4mPath) }
                return try measure(input, settings: settings, tools: tools, scratch: scratch)
            }
        }
        try printSummary(results, jsonOnly: settings.jsonOnly, nothingMeasured: "no input was measured").require()
    }

    /// Runs every measurement on one input, `settings.runs` times, interleaved run by run so that
    /// noise from other processes spreads over all methods alike.
    static func measure(_ input: BenchInput, settings: BenchSettings, tools: FFmpegTools, scratch: String) throws -> InputResult {
        var result = InputResult(input: input.summary, settings: settings)
        let name = input.summary.kind.rawValue
        let recording = scratch + "/\(name).luma"
        let peerFiles = Dictionary(uniqueKeysWithValues: Peer.allCases.map { ($0, scratch + "/\(name).\($0.rawValue).mkv") })
        defer {
            try? FileManager.default.removeItem(atPath: recording)
            for file in peerFiles.values { try? FileManager.default.removeItem(atPath: file) }
        }

        // Untimed: one recording, decoded and compared frame by frame, so every timed run below is
        // known to measure a lossless round trip (and the code and caches are warm).
        log("\(name): checking that Lumatrace gives back every frame exactly")
        _ = try LumatraceMeasure.record(input, to: recording, options: settings.options)
        try LumatraceMeasure.verifyLossless(recording, input: input)
        let expectedProbe = LumatraceMeasure.probeSum(input)
        var copy = [UInt8](repeating: 0xA5, count: input.summary.rawBytes)

        for run in 1...settings.runs {
            log("\(name): run \(run) of \(settings.runs): memcpy, Lumatrace record and decode, "
                + Peer.allCases.map(\.rawValue).joined(separator: " and ") + " encode and decode")
            result.memcpy.append(LumatraceMeasure.memcpy(input, into: &copy))

            let recorded = try LumatraceMeasure.record(input, to: recording, options: settings.options)
            result.record.append(recorded.seconds)
            result.lumatraceBytes = Int(recorded.summary.fileSize)
            result.chunkCount = recorded.summary.chunkCount

            let decoded = try LumatraceMeasure.decode(recording)
            guard decoded.probe == expectedProbe else {
                throw MeasureError(description: "\(recording): decoded frames differ from the recorded ones (probe sum \(decoded.probe), expected \(expectedProbe))")
            }
            result.decode.append(decoded.seconds)

            for peer in Peer.allCases {
                let file = peerFiles[peer]!
                var samples = result.peers[peer] ?? PeerSamples()
                samples.encode.append(try peer.encode(input, to: file, tools: tools))
                samples.bytes = try fileSize(file)
                samples.decode.append(try peer.decode(file, tools: tools))
                result.peers[peer] = samples
            }
        }
        return result
    }
}
