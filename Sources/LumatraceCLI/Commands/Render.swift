import ArgumentParser
import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaFormat
import LumaRegression
import LumaRecording
import LumaRender
import LumaOutput

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw an event log over its recording's frames: PNG frames, a contact sheet, a GIF or an MP4.",
        discussion: """
            The output is chosen by its name:
              lumatrace render clip.luma --events clip.events.jsonl -o frames/      # a PNG per frame
              lumatrace render clip.luma --events clip.events.jsonl -o sheet.png    # contact sheet
              lumatrace render clip.luma --events clip.events.jsonl -o clip.gif     # needs ffmpeg
              lumatrace render clip.luma --events clip.events.jsonl -o clip.mp4 --from 2s --to 6s

            Drawn as in Apple's Vision samples: trajectory points in red and the fitted
            path in green, regions of interest in blue, tracked boxes one colour per
            track (solid when confidence > 0.5, dashed below), rectangles in magenta,
            differencing blobs in yellow. A contact sheet shows every --every'th frame
            (default: at most 24 tiles) with its frame number.
            """)

    @Argument(help: "The .luma recording: a path, or an http(s):// URL read with range requests.", completion: Completions.recording)
    var recording: RecordingLocation

    @Option(help: "The event log to draw (made from this recording).", completion: Completions.eventLog)
    var events: String

    @Option(name: .shortAndLong, help: "A folder (ends with /), a .png contact sheet, a .gif or an .mp4.")
    var output: String

    @OptionGroup var frames: FrameRangeOptions

    @Option(help: "Draw every Nth frame (1...100000; contact sheet default: at most 24 tiles).")
    var every: Int?

    @Option(help: "Contact sheet columns (1...32).")
    var columns = 4

    @Option(help: "Contact sheet width in pixels at most (200...16384); frames are shrunk by whole factors to fit.")
    var sheetWidth = 1600

    @OptionGroup var forcing: DrawOtherRecordingOption
    private var force: Bool { forcing.force }

    enum Kind { case folder, sheet, gif, mp4 }

    func validate() throws {
        if let every, !(1...100_000).contains(every) { throw ValidationError("--every \(every) is outside 1...100000") }
        guard (1...32).contains(columns) else { throw ValidationError("--columns \(columns) is outside 1...32") }
        guard (200...16384).contains(sheetWidth) else { throw ValidationError("--sheet-width \(sheetWidth) is outside 200...16384") }
    }

    /// The kind of output, from its name; checked before any frame is decoded.
    static func kind(of output: String) throws -> Kind {
        var isFolder: ObjCBool = false
        if output.hasSuffix("/") || (FileManager.default.fileExists(atPath: output, isDirectory: &isFolder) && isFolder.boolValue) { return .folder }
        switch URL(fileURLWithPath: output).pathExtension.lowercased() {
        case "png": return .sheet
        case "gif": return .gif
        case "mp4": return .mp4
        case "": return .folder
        case let other: throw CLIError("-o \(output): cannot write .\(other); give a folder (ending in /), a .png contact sheet, a .gif or an .mp4")
        }
    }

    func run() throws {
        try reportingErrors {
            let kind = try Self.kind(of: output)
            let ffmpeg = kind == .gif || kind == .mp4
                ? try Tools.require("ffmpeg", for: "to write GIF and MP4", otherwise: "or render PNG frames (-o folder/) instead") : nil
            // The output is claimed before any frame is decoded; it takes its name only when complete.
            let inputs = [recording.filePath, events].compactMap { $0 }
            let folder = kind == .folder
                ? try OutputFolder.create(output, replacingExisting: force, inputs: inputs, owns: Self.isRenderedFrame) : nil
            let file = kind == .folder ? nil
                : try OutputFile.create(output, replacingExisting: force, inputs: inputs, kind: .media,
                                        streams: kind == .sheet ? .allowed : .refused(why: "ffmpeg writes GIF and MP4 to a file"))
            let log = try EventLog.read(events).declaringKinds(from: Lumatrace.registry)
            let reader = try openRecording(recording)
            try OutputChecks.requireSameRecording(log, reader: reader, recording: recording, force: force)
            let range = try frames.range(in: reader)
            let overlay = try EventOverlay(log: log)
            let step = every ?? (kind == .sheet ? max(1, (range.count + 23) / 24) : 1)
            let frames = Array(stride(from: range.lowerBound, through: range.upperBound, by: step))
            let drawn = switch kind {
            case .folder: try Self.writeFolder(folder!, frames, reader: reader, overlay: overlay)
            case .sheet: try writeSheet(file!, frames, reader: reader, overlay: overlay)
            case .gif, .mp4: try writeVideo(file!, frames, reader: reader, overlay: overlay, ffmpeg: ffmpeg!, container: kind == .gif ? .gif : .mp4)
            }
            print("drew \(Plural.count(drawn, "frame")) of \(recording) with \(Plural.count(log.events.count, "event")) → \(output)")
            log.warnIfIncomplete()
        }
    }

    /// Writes `frames`, drawn over, as `frame-NNNNNN.png` files into `folder`; returns how many.
    static func writeFolder(_ folder: OutputFolder, _ frames: [Int], reader: RecordingReader, overlay: EventOverlay) throws -> Int {
        var drawn = 0
        try forEachDrawnFrame(frames, reader: reader, overlay: overlay) { index, _, image in
            try folder.write(PNGFile.encode(image), to: String(format: "frame-%06d.png", index))
            drawn += 1
        }
        try folder.commit()
        return drawn
    }

    /// Writes `frames`, drawn over, as the tiles of one contact sheet PNG; returns how many.
    func writeSheet(_ file: OutputFile, _ frames: [Int], reader: RecordingReader, overlay: EventOverlay) throws -> Int {
        let sheet = ContactSheet(frameWidth: reader.header.width, frameHeight: reader.header.height, count: frames.count, columns: columns,
                                 maximumWidth: sheetWidth)
        var canvas = sheet.canvas()
        var tile = 0
        try Self.forEachDrawnFrame(frames, reader: reader, overlay: overlay) { index, _, image in
            sheet.place(image, label: "\(index)", tile: tile, on: &canvas)
            tile += 1
        }
        try file.write(PNGFile.encode(canvas))
        try file.commit()
        return tile
    }

    /// Writes `frames`, drawn over, as a GIF or MP4 through ffmpeg at the pace they were taken;
    /// warns when the frame rate varies by more than half a frame; returns how many frames.
    func writeVideo(_ file: OutputFile, _ frames: [Int], reader: RecordingReader, overlay: EventOverlay, ffmpeg: String,
                    container: VideoEncoder.Container) throws -> Int {
        file.handOverToAnotherWriter()
        let rate = try PlaybackRate.mean(of: frames, in: reader)
        let pipe = try VideoEncoder(ffmpeg: ffmpeg, output: output, writingTo: file.temporaryPath!,
                                    width: reader.header.width, height: reader.header.height, rate: rate, container: container)
        var times: [Timestamp] = []
        do {
            try Self.forEachDrawnFrame(frames, reader: reader, overlay: overlay) { _, time, image in
                try pipe.write(image)
                times.append(time)
            }
        } catch {
            pipe.abandon()
            throw error
        }
        try pipe.finish()
        try file.commit()
        let off = FrameTimes(times).deviation(fromRateNumerator: Int((rate * 1_000_000).rounded()), denominator: 1_000_000)
        if off > 0.5 / rate {
            warn("\(recording): variable frame rate: \(output) plays at the mean rate, \(DecimalText.fixed(rate, 3)) frames/s, "
                 + "so frames are up to \(DecimalText.fixed(off, 3)) s off their real time")
        }
        return times.count
    }

    /// The files a rendered folder holds: `frame-NNNNNN.png`. A folder with anything else is never replaced.
    static func isRenderedFrame(_ name: String) -> Bool {
        name.hasPrefix("frame-") && name.hasSuffix(".png") && name.dropFirst(6).dropLast(4).allSatisfy(\.isNumber)
    }

    /// Decodes `frames` (ascending) and calls `body` with each one's index and time, drawn over,
    /// showing progress.
    static func forEachDrawnFrame(_ frames: [Int], reader: RecordingReader, overlay: EventOverlay,
                                  _ body: (Int, Timestamp, RGBImage) throws -> Void) throws {
        let decoder = reader.makeDecoder()
        let progress = ProgressBar("rendering")
        defer { progress.finish() }
        for (n, index) in frames.enumerated() {
            let frame = try decoder.frame(at: index)
            var image = frame.pixels.withUnsafeBufferPointer { RGBImage(luma: $0, width: reader.header.width, height: reader.header.height) }
            overlay.draw(frame: index, on: &image)
            try body(index, Timestamp(ticks: frame.ticks, timescale: reader.header.timescale), image)
            progress.update(n + 1, frames.count)
        }
    }
}
