import ArgumentParser
import Foundation
import LumaBase
import LumaEngine
import LumaFormat
import LumaRegression
import LumaOutput

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a recording's frames back out as Y4M or PGM images.",
        discussion: """
              lumatrace export clip.luma --format y4m | ffmpeg -i - clip.mp4     # Y4M on stdout
              lumatrace export clip.luma --format y4m -o clip.y4m
              lumatrace export clip.luma --format pgm -o frames/ --from 2s --to 4s
            Frames are byte-identical to what was recorded, and Y4M declares their range
            (XCOLORRANGE) when the recording knows it.

            Time: Y4M carries one constant rate (the nominal one). When the frames' real times
            stray from it by more than half a frame (variable frame rate), export says so and
            writes the real times beside the stream in mkvmerge's timestamp format v2
            (OUTPUT.timestamps.txt, or --timestamps FILE), which puts them back:
              ffmpeg -i clip.y4m -c:v ffv1 clip.mkv
              mkvmerge -o timed.mkv --timestamps 0:clip.y4m.timestamps.txt clip.mkv
            PGM folders get timestamps.txt (each frame's exact time) and frames.ffconcat, which
            ffmpeg plays at the real pace:
              ffmpeg -safe 0 -f concat -i frames/frames.ffconcat -fps_mode passthrough -c:v ffv1 clip.mkv
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case y4m, pgm }

    @Argument(help: "The .luma recording: a path, or an http(s):// URL read with range requests.", completion: Completions.recording)
    var recording: RecordingLocation

    @Option(help: "y4m (one stream) or pgm (one file per frame).")
    var format: Format

    @Option(name: .shortAndLong, help: "Output: a file for y4m ('-' or omitted = stdout), a folder for pgm.")
    var output: String?

    @OptionGroup var frames: FrameRangeOptions

    @Option(help: "Y4M: write the frames' real times here (mkvmerge timestamp format v2), whatever the rate.")
    var timestamps: String?

    @OptionGroup var replacing: ReplaceOutputOption

    func run() throws {
        try reportingErrors {
            try OutputChecks.requireDistinct(("-o", output), ("--timestamps", timestamps))
            let reader = try openRecording(recording)
            let range = try frames.range(in: reader)
            let h = reader.header
            let decoder = reader.makeDecoder()
            let progress = ProgressBar("exporting")
            switch format {
            case .y4m:
                let target = output ?? "-"
                if target == "-", isatty(1) != 0 {
                    throw CLIError("refusing to write a Y4M stream to a terminal; pipe it (| ffmpeg -i - out.mp4) or pass -o FILE")
                }
                let sink = try OutputFile.create(target, replacingExisting: replacing.replacesExisting, inputs: [recording.filePath].compactMap { $0 }, kind: .media, streams: .allowed)
                let writer = Y4MWriter(width: h.width, height: h.height)
                try sink.write(writer.header(rateNumerator: h.rateNumerator, rateDenominator: h.rateDenominator,
                                             signal: LumaSignal(metadata: h.metadata)))
                var times: [Timestamp] = []
                try forEachFrame(reader, decoder, range) { index, ticks, pixels in
                    try sink.write(Y4MWriter.frameMarker)
                    try sink.write(UnsafeRawBufferPointer(pixels))
                    times.append(Timestamp(ticks: ticks, timescale: h.timescale))
                    progress.update(index - range.lowerBound + 1, range.count)
                }
                try sink.commit()
                progress.finish()
                try writeRealTimes(FrameTimes(times), header: h, streamOutput: target)
            case .pgm:
                guard let output, output != "-" else { throw CLIError("--format pgm needs -o FOLDER") }
                let folder = try OutputFolder.create(output, replacingExisting: replacing.replacesExisting, inputs: [recording.filePath].compactMap { $0 }, owns: Self.isExportedFile)
                var times = "# frame seconds (exact timestamps of the exported frames)\n"
                var files: [String] = [], stamps: [Timestamp] = []
                try forEachFrame(reader, decoder, range) { index, ticks, pixels in
                    let file = String(format: "frame-%06d.pgm", index)
                    try folder.write(PGMCodec.encode(width: h.width, height: h.height, pixels: pixels), to: file)
                    let time = Timestamp(ticks: ticks, timescale: h.timescale)
                    times += "\(index) \(time.fixedDecimalSeconds())\n"
                    files.append(file)
                    stamps.append(time)
                    progress.update(index - range.lowerBound + 1, range.count)
                }
                try folder.write(Array(times.utf8), to: "timestamps.txt")
                try folder.write(Array(FrameTimes(stamps).ffconcat(files: files).utf8), to: "frames.ffconcat")
                try folder.commit()
                progress.finish()
            }
        }
    }

    /// After a Y4M export: when its constant rate misplaces frames (or when asked), the frames'
    /// real times go beside it, and stderr says what happened.
    private func writeRealTimes(_ times: FrameTimes, header h: RecordingHeader, streamOutput: String) throws {
        let rate = Y4MWriter.declaredRate(numerator: h.rateNumerator, denominator: h.rateDenominator)
        let constant = times.isConstant(rateNumerator: rate.numerator, denominator: rate.denominator)
        let destination = timestamps ?? (constant || streamOutput == "-" ? nil : streamOutput + ".timestamps.txt")
        if !constant {
            let playing = Double(max(0, times.timestamps.count - 1)) * Double(rate.denominator) / Double(rate.numerator)
            var message = "\(recording): variable frame rate: Y4M has one rate, F\(rate.numerator):\(rate.denominator), so frames are up to "
                + "\(DecimalText.fixed(times.deviation(fromRateNumerator: rate.numerator, denominator: rate.denominator), 3)) s off their real time "
                + "(first to last frame: \(DecimalText.fixed(playing, 3)) s instead of \(DecimalText.fixed(times.span, 3)) s)"
            if let destination {
                message += "; the real times are in \(destination) (mkvmerge timestamp format v2; see `lumatrace export --help`)"
            } else {
                message += "; pass --timestamps FILE to keep the real times"
            }
            warn(message)
        }
        guard let destination else { return }
        let file = try OutputFile.create(destination, replacingExisting: replacing.replacesExisting, inputs: [recording.filePath, streamOutput == "-" ? nil : streamOutput].compactMap { $0 }, kind: .text,
                                         streams: .allowed)
        try file.write(Array(times.mkvmergeTimestamps().utf8))
        try file.commit()
    }

    /// The files an exported PGM folder holds. A folder with anything else is never replaced.
    static func isExportedFile(_ name: String) -> Bool {
        name == "timestamps.txt" || name == "frames.ffconcat" || (name.hasPrefix("frame-") && name.hasSuffix(".pgm") && name.dropFirst(6).dropLast(4).allSatisfy(\.isNumber))
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
        guard readable < range.count else { return }
        // A closed file's index lists every chunk it holds: the frames between are those `recover`
        // removed with their damaged chunk, and the export is whole without them (each frame
        // keeps its real time). An unclosed file's missing frames are damage.
        if reader.hasIndex {
            warn("\(recording): \(Plural.count(range.count - readable, "frame")) of the range were removed by `lumatrace recover` with a damaged chunk; the export holds the \(readable) the recording has, at their real times")
        } else {
            throw CLIError("\(recording): \(Plural.count(range.count - readable, "frame")) in the range are in damaged chunks and were not exported (see `lumatrace info`)")
        }
    }
}

