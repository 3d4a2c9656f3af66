import ArgumentParser
import Foundation
import LumaBase
import LumaEngine

/// `lumatrace play LOG`: a log's events on standard output at the pace of the recording, as
/// `record --events -` delivers them live, so a program built against the live stream can be
/// developed and tested from a recording.
struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a log's events to standard output at the pace of the recording's timestamps (like `ros2 bag play`).",
        discussion: """
            The header line first, then each event line when its time ("t") comes, measured
            from the first event played, then the footer (when the whole log was played):
            the same lines, in the same order, as `lumatrace record … --events -` wrote
            them live.

              lumatrace play rec.events.jsonl | ./my-consumer
              lumatrace play rec.events.jsonl --rate 2              # twice as fast
              lumatrace play rec.events.jsonl --from 4.5s --to 9s    # a stretch (frames or times)
              lumatrace play rec.events.jsonl --loop                 # again and again, until Ctrl-C

            Pacing uses a monotonic clock; the lines themselves are the log's bytes. The log
            may come from a pipe: lumatrace play <(zcat rec.events.jsonl.gz).
            """)

    @Argument(help: "The event log to play.", completion: Completions.eventLog)
    var log: String

    @Option(help: "Playback speed: 2 plays twice as fast, 0.5 at half speed (0.001...1000).")
    var rate: Double = 1

    @Flag(help: "Start again from the first event after the last, until interrupted (no footer is written).")
    var loop = false

    @Option(parsing: .unconditional, help: "First event played: a frame index (120) or a time (4.5s).", transform: FramePosition.parse)
    var from: FramePosition?

    @Option(parsing: .unconditional, help: "Last event played, inclusive: a frame index or a time.", transform: FramePosition.parse)
    var to: FramePosition?

    func validate() throws {
        guard rate.isFinite, (0.001...1000).contains(rate) else { throw ValidationError("--rate \(rate) is outside 0.001...1000") }
        // As replay refuses it: a stretch that ends before it starts is a wrong command line.
        switch (from, to) {
        case (.frame(let a)?, .frame(let b)?) where a > b: throw ValidationError("--from (frame \(a)) is after --to (frame \(b))")
        case (.seconds(let a)?, .seconds(let b)?) where a > b: throw ValidationError("--from (\(a)s) is after --to (\(b)s)")
        default: break
        }
    }

    func run() throws {
        try reportingErrors {
            // The lines as written, each once it passed its checks: read once, as a log from a
            // pipe (`<(…)`) can only be.
            var lines: [Data] = []
            let parsed = try EventLog.read(log) { lines.append(Data($0) + Data([10])) }
            let header = lines[0]
            // The footer counts and digests every event: it follows only a whole log played once.
            let footer = parsed.footer == nil || from != nil || to != nil ? nil : lines.last
            let eventLines = Array(lines[1..<(1 + parsed.events.count)])
            let chosen = zip(parsed.events, eventLines).filter { event, _ in
                Self.contains(from, event, lower: true) && Self.contains(to, event, lower: false)
            }
            if chosen.isEmpty, !parsed.events.isEmpty { warn("warning: no event of \(log) lies within --from/--to") }
            let out = FileHandle.standardOutput
            out.write(header)
            repeat {
                let start = DispatchTime.now().uptimeNanoseconds
                let first = chosen.first?.0.seconds ?? 0
                for (event, line) in chosen {
                    let due = Self.due(start: start, after: (event.seconds - first) / rate)
                    let now = DispatchTime.now().uptimeNanoseconds
                    if due > now { Thread.sleep(forTimeInterval: Double(due - now) / 1e9) }
                    out.write(line)
                }
            } while loop && !chosen.isEmpty
            if let footer { out.write(footer) }
        }
    }

    /// The monotonic time `seconds` after `start`, in nanoseconds: never before `start`, and a
    /// time further than the clock can count (a log's times may lie 10^18 s apart) is the clock's
    /// end: beyond 4·10^18 ns (127 years) from an uptime that is itself far below 10^19.
    static func due(start: UInt64, after seconds: Double) -> UInt64 {
        let nanoseconds = max(0, seconds) * 1e9
        guard nanoseconds < 4e18, start < UInt64.max - 4_000_000_000_000_000_000 else { return .max }
        return start + UInt64(nanoseconds)
    }

    /// Whether `event` is on the right side of a `--from` (`lower`) or `--to` bound.
    static func contains(_ bound: FramePosition?, _ event: LoggedEvent, lower: Bool) -> Bool {
        switch bound {
        case nil: return true
        case .frame(let f)?: return lower ? event.frame >= f : event.frame <= f
        case .seconds(let s)?:
            let t = event.seconds
            return lower ? t >= s : t <= s
        }
    }
}
