import ArgumentParser
import Foundation
import LumaFormat

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a recording's frames back out as Y4M or PGM images.",
        discussion: """
              lumatrace export clip.luma --format y4m | ffmpeg -i - clip.mp4     # Y4M on stdout
              lumatrace export clip.luma --format y4m -o clip.y4m
              lumatrace export clip.luma --format pgm -o frames/ --from 2s --to 4s
            Frames are byte-identical to what was recorded. Y4M carries one constant rate (the
            nominal one); PGM folders get a timestamps.txt with each frame's exact time.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case y4m, pgm }

    @Argument(help: "The .luma recording.")
    var recording: String

    @Option(help: "y4m (one stream) or pgm (one file per frame).")
    var format: Format

    @Option(name: .shortAndLong, help: "Output: a file for y4m ('-' or omitted = stdout), a folder for pgm.")
    var output: String?

    @Option(help: "First frame: an index (120) or a time (4.5s).")
    var from: FramePosition?

    @Option(help: "Last frame, inclusive: an index or a time.")
    var to: FramePosition?

    @Flag(help: "Overwrite existing output.")
    var force = false

    func run() throws {
        try reportingErrors {
            let reader = try RecordingReader(path: recording)
            let range = try FramePosition.range(from: from, to: to, in: reader)
            let h = reader.header
            let decoder = reader.makeDecoder()
            let progress = ProgressBar("exporting")
            switch format {
            case .y4m:
                let target = output ?? "-"
                if target == "-", isatty(1) != 0 {
                    throw CLIError("refusing to write a Y4M stream to a terminal; pipe it (| ffmpeg -i - out.mp4) or pass -o FILE")
                }
                let sink = try OutputFile.create(target, replacingExisting: force, inputs: [recording], streams: .allowed)
                let writer = Y4MWriter(width: h.width, height: h.height)
                try sink.write(writer.header(rateNumerator: h.rateNumerator, rateDenominator: h.rateDenominator))
                try forEachFrame(reader, decoder, range) { index, _, pixels in
                    try sink.write(Y4MWriter.frameMarker)
                    try sink.write(UnsafeRawBufferPointer(pixels))
                    progress.update(index - range.lowerBound + 1, range.count)
                }
                try sink.commit()
            case .pgm:
                guard let output, output != "-" else { throw CLIError("--format pgm needs -o FOLDER") }
                let folder = try OutputFolder.create(output, replacingExisting: force, inputs: [recording], owns: Self.isExportedFile)
                var times = "# frame seconds (exact timestamps of the exported frames)\n"
                try forEachFrame(reader, decoder, range) { index, ticks, pixels in
                    try folder.write(PGMCodec.encode(width: h.width, height: h.height, pixels: pixels), to: String(format: "frame-%06d.pgm", index))
                    times += "\(index) \(Timestamp(ticks: ticks, timescale: h.timescale).fixedDecimalSeconds())\n"
                    progress.update(index - range.lowerBound + 1, range.count)
                }
                try folder.write(Array(times.utf8), to: "timestamps.txt")
                try folder.commit()
            }
            progress.finish()
        }
    }

    /// The files an exported PGM folder holds. A folder with anything else is never replaced.
    static func isExportedFile(_ name: String) -> Bool {
        name == "timestamps.txt" || (name.hasPrefix("frame-") && name.hasSuffix(".pgm") && name.dropFirst(6).dropLast(4).allSatisfy(\.isNumber))
    }

    private func forEachFrame(_ reader: RecordingReader, _ decoder: ChunkDecoder, _ range: ClosedRange<Int>,
                              _ body: (Int, Int64, UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        for entry in reader.chunks where entry.frames.overlaps(range.lowerBound..<(range.upperBound + 1)) {
            let chunk = try decoder.decode(entry)
            for k in 0..<chunk.count where range.contains(entry.firstFrame + k) {
                try chunk.withFrame(k) { try body(entry.firstFrame + k, chunk.timestamps[k], $0) }
            }
            decoder.recycle(chunk)
        }
        let readable = reader.chunks.filter { $0.frames.overlaps(range.lowerBound..<(range.upperBound + 1)) }.reduce(0) { $0 + $1.frames.clamped(to: range.lowerBound..<(range.upperBound + 1)).count }
        if readable < range.count {
            throw CLIError("\(recording): \(range.count - readable) frames in the range are in damaged chunks and were not exported (see `lumatrace info`)")
        }
    }
}

