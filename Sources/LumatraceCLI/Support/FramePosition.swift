import ArgumentParser
import LumaBase
import LumaFormat

/// A position in a recording given on the command line: a frame index (`120`) or a time in
/// seconds (`4.5s`).
enum FramePosition: ExpressibleByArgument, Equatable {
    case frame(Int)
    case seconds(Double)

    init?(argument: String) {
        if argument.hasSuffix("s"), let s = Double(argument.dropLast()), s.isFinite, s >= 0 {
            self = .seconds(s)
        } else if let f = Int(argument), f >= 0 {
            self = .frame(f)
        } else {
            return nil
        }
    }

    static var defaultCompletionKind: CompletionKind { .default }

    /// Parses a `--from`/`--to` value, saying what a position looks like when it is not one (the
    /// options take their value unconditionally, so `--from -1` reaches this rather than being
    /// read as an unknown flag).
    static func parse(_ argument: String) throws -> FramePosition {
        if let position = FramePosition(argument: argument) { return position }
        let looksNegative = argument.hasPrefix("-")
        throw ValidationError("a position is a frame index (0, 1, …) or a time in seconds (4.5s)\(looksNegative ? ", never negative" : "")")
    }

    /// The frame index: a time resolves to the first frame at or after it.
    func resolve(in reader: RecordingReader, option: String) throws -> Int {
        switch self {
        case .frame(let f):
            guard f < reader.frameCount else {
                throw CLIError("\(option) \(f): frame is past the end of the recording (frames 0...\(reader.frameCount - 1))")
            }
            return f
        case .seconds(let s):
            guard let ticks = Int64.ticks(exactlyForSeconds: s, timescale: reader.header.timescale),
                  let f = try reader.frameIndex(atOrAfter: ticks) else {
                throw CLIError("\(option) \(s)s: no frame at or after that time (the recording ends at \(endTime(of: reader)))")
            }
            return f
        }
    }

    private func endTime(of reader: RecordingReader) -> Timestamp {
        Timestamp(ticks: reader.chunks.last?.lastTicks ?? 0, timescale: reader.header.timescale)
    }

    /// Resolves `--from`/`--to` into an inclusive frame range.
    static func range(from: FramePosition?, to: FramePosition?, in reader: RecordingReader) throws -> ClosedRange<Int> {
        guard reader.frameCount > 0 else { throw LumaFormatError.noFrames(path: reader.path) }
        let first = try from?.resolve(in: reader, option: "--from") ?? 0
        var last = reader.frameCount - 1
        if let to {
            switch to {
            case .frame: last = try to.resolve(in: reader, option: "--to")
            case .seconds(let s):
                // The last frame at or before the time. A time past any tick a recording can hold
                // (`1e300s`) is past its end: every frame is before it.
                if let ticks = Int64.ticks(exactlyForSeconds: s, timescale: reader.header.timescale),
                   let after = try reader.frameIndex(atOrAfter: ticks + 1) { last = after - 1 }
            }
        }
        guard first <= last else { throw UsageError("--from (frame \(first)) is after --to (frame \(last))") }
        return first...last
    }
}

/// `--from` and `--to`: the frames a command reads, the same options for every command that takes
/// them (`replay`, `render`, `export`).
struct FrameRangeOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "First frame: an index (120) or a time (4.5s).", transform: FramePosition.parse)
    var from: FramePosition?

    @Option(parsing: .unconditional, help: "Last frame, inclusive: an index or a time.", transform: FramePosition.parse)
    var to: FramePosition?

    /// The inclusive frame range they select in `reader` (every frame when neither is given).
    func range(in reader: RecordingReader) throws -> ClosedRange<Int> {
        try FramePosition.range(from: from, to: to, in: reader)
    }
}
