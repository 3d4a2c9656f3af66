import ArgumentParser
import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaFormat

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Describe a recording: size, frames, timing, chunks, compression, and any damage.",
        discussion: """
            Every chunk is decoded and checked (zstd checksums), so damage anywhere is reported with
            its chunk number and frame range; --quick skips that and reads only the header and index.
              lumatrace info clip.luma
              lumatrace info clip.luma --json
            """)

    @Argument(help: "The .luma recording: a path, or an http(s):// URL read with range requests.", completion: Completions.recording)
    var recording: RecordingLocation

    @Flag(help: "Read only the header and index; do not decode and check every chunk.")
    var quick = false

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        try reportingErrors {
            let reader = try openRecording(recording)
            let damage = quick ? reader.damage : reader.verify()
            if let failure = reader.readFailure { throw failure }
            let stats = RecordingStatistics(reader: reader, damage: damage)
            let digest = (try? reader.framesDigest().hexString) ?? "unavailable (damaged)"
            if json {
                printJSON(reader, damage: damage, stats: stats, digest: digest)
            } else {
                printText(reader, damage: damage, stats: stats, digest: digest)
            }
            // No frame left to read is an error (2); damage that cost frames is the answer "damaged" (1).
            if !damage.isEmpty && stats.readableFrames == 0 {
                throw CLIError("\(recording): no frame is readable (\(Plural.count(damage.count, "damaged range")) listed above)")
            }
            if damage.contains(where: { $0.frames.map { !$0.isEmpty } ?? false }) { throw ExitCode(Lumatrace.Status.difference) }
        }
    }

    /// The recording described as one JSON object.
    private func printJSON(_ reader: RecordingReader, damage: [RecordingDamage], stats: RecordingStatistics, digest: String) {
        let h = reader.header
        let (first, last, frames, readable) = (stats.firstTicks, stats.lastTicks, stats.frames, stats.readableFrames)
        let (duration, ratio, bytesPerFrame) = (stats.duration, stats.compressionRatio, stats.bytesPerFrame)

        let value = JSONValue.object([
            .init("file", .string(recording.description)),
            .init("bytes", .int(Int64(reader.fileSize))),
            .init("formatVersion", .int(Int64(reader.formatVersion))),
            .init("width", .int(Int64(h.width))),
            .init("height", .int(Int64(h.height))),
            .init("pixelFormat", .string("gray8")),
            .init("timescale", .int(h.timescale)),
            .init("nominalFrameRate", .double(h.nominalFrameRate)),
            .init("frames", .int(Int64(frames))),
            .init("readableFrames", .int(Int64(readable))),
            .init("firstTimestamp", .number(Timestamp(ticks: first, timescale: h.timescale).fixedDecimalSeconds())),
            .init("lastTimestamp", .number(Timestamp(ticks: last, timescale: h.timescale).fixedDecimalSeconds())),
            .init("duration", .double(duration)),
            .init("chunks", .int(Int64(reader.chunks.count))),
            .init("indexed", .bool(reader.hasIndex)),
            .init("bytesPerFrame", .double(bytesPerFrame)),
            .init("compressionRatio", .double(ratio)),
            .init("sha256", .string(digest)),
            .init("metadata", .object(h.metadata.keys.sorted().map { .init($0, .string(h.metadata[$0]!)) })),
            .init("damage", .array(damage.map { d in
                .object([
                    .init("chunk", d.chunk.map { .int(Int64($0)) } ?? .null),
                    .init("frames", d.frames.map { .array([.int(Int64($0.lowerBound)), .int(Int64($0.upperBound - 1))]) } ?? .null),
                    .init("bytes", .array([.int(Int64(d.bytes.lowerBound)), .int(Int64(d.bytes.upperBound))])),
                    .init("reason", .string(d.reason + FlagHints.recoverHint(for: d.cause))),
                ])
            })),
        ])
        print(value.serialized)
    }

    /// The recording described as aligned lines of text.
    private func printText(_ reader: RecordingReader, damage: [RecordingDamage], stats: RecordingStatistics, digest: String) {
        let h = reader.header
        let (first, last, frames, readable) = (stats.firstTicks, stats.lastTicks, stats.frames, stats.readableFrames)
        let (duration, ratio, bytesPerFrame) = (stats.duration, stats.compressionRatio, stats.bytesPerFrame)

        print("""
            \(recording)
              format        .luma version \(reader.formatVersion)
              size          \(h.width)x\(h.height) gray8
              frames        \(frames)\(readable != frames ? " (\(readable) readable)" : "")
              timing        \(Timestamp(ticks: first, timescale: h.timescale)) … \(Timestamp(ticks: last, timescale: h.timescale)), duration \(DecimalText.fixed(duration, 3)) s, timescale \(h.timescale)/s, nominal \(h.rateNumerator)/\(h.rateDenominator) = \(DecimalText.fixed(h.nominalFrameRate, 3)) fps
              chunks        \(reader.chunks.count)\(reader.hasIndex ? "" : reader.hasTrailer ? " (found by scanning: the recording was closed, but its index is damaged or does not match its chunks; `lumatrace recover` rewrites it)" : " (no index: the recording was not closed; `lumatrace recover` rewrites it)")
              file          \(reader.fileSize) bytes, \(DecimalText.fixed(bytesPerFrame, 0)) bytes/frame, compression ratio \(DecimalText.fixed(ratio, 2)) (raw \(stats.rawBytes) bytes)
              sha256        \(digest)
            """)
        for key in h.metadata.keys.sorted() { print("  meta          \(key) = \(h.metadata[key]!)") }
        if damage.isEmpty {
            print(quick ? "  damage        not checked (--quick)" : "  damage        none: every chunk decodes and passes its checksums")
        } else {
            for d in damage { print("  damage        \(FlagHints.message(for: d))") }
        }
    }
}
