import Foundation
import LumaAnalysis

/// Options of the ``TrackingAnalyzer``; set one with `--set tracking.KEY=VALUE`, and see them all with
/// `lumatrace analyzers tracking`.
public struct TrackingConfiguration: AnalyzerConfiguration {
    /// How hard the tracker works for each object (Vision's `VNRequestTrackingLevel`).
    public enum Level: String, OptionChoice {
        /// A kernelized correlation filter on oriented gradients, three scales.
        case fast
        /// The same with a finer patch, five scales and a slower-learning model.
        case accurate
    }

    /// The objects to follow: `[label=]x,y,w,h[@frame]` separated by `;`, or the same as a JSON
    /// array `[{"box": [x, y, w, h], "label": "…", "frame": n}, …]` (label and frame optional;
    /// `--set tracking.seeds=@seeds.json` reads it from a file). Boxes are normalized with Vision's
    /// lower-left origin, or written `px:x,y,w,h` in pixels from the top-left corner (converted with
    /// the recording's frame size); `label` (letters, digits, `-`, `_`) names the track in its events;
    /// `frame` starts it at that frame (default: the first analyzed frame).
    public var seeds = ""
    public var trackingLevel = Level.accurate
    /// Confidence below which a frame counts as a miss.
    public var lostThreshold = 0.3
    /// Misses in a row after which the track is reported lost.
    public var lostFrames = 5
    /// Frames after being lost during which the target is looked for near where it was lost; found
    /// again, the track continues under the same id (`track.recovered`).
    public var recoverFrames = 30
    /// Where tracks come from besides the seeds.
    public var nominate = Nomination.none
    /// Analyzed frames between nominations (the Apple sample suggests re-running every ten).
    public var renominateEvery = 10
    /// Smallest nominated box side, as a fraction of the frame's shorter side.
    public var nominationMinimumSize = 0.05
    /// Most tracks alive at once; nomination stops adding tracks at this many.
    public var maximumTracks = 64

    /// Sources of tracks besides the seeds.
    public enum Nomination: String, OptionChoice {
        /// Only the seeds.
        case none
        /// Moving regions against a background model, every `renominateEvery` frames: each one that
        /// overlaps no live track starts a new track.
        case motion
        /// Rectangles seen in the frame (as `VNDetectRectanglesRequest` finds them), every
        /// `renominateEvery` frames, the same way.
        case rectangles
    }

    public init() {}

    public static let options: [AnalyzerOption<Self>] = [
        AnalyzerOption("seeds", \.seeds, help: """
            objects to follow: [label=]x,y,w,h[@frame] separated by ';' (normalized, lower-left origin; or px:x,y,w,h \
            in pixels from the top-left corner), or a JSON array of {box, label, frame}
            """, check: TrackingSeed.problem(in:)),
        AnalyzerOption("trackingLevel", \.trackingLevel, help: "how hard the tracker works for each object"),
        AnalyzerOption("lostThreshold", \.lostThreshold, in: .above(0, below: 1), help: "confidence below which a frame is a miss"),
        AnalyzerOption("lostFrames", \.lostFrames, in: 1...10_000, help: "misses in a row before track.lost"),
        AnalyzerOption("recoverFrames", \.recoverFrames, in: 0...100_000, help: "frames a lost target is looked for"),
        AnalyzerOption("nominate", \.nominate,
                       help: "what else starts tracks besides the seeds (moving regions or rectangles that overlap no live track)"),
        AnalyzerOption("renominateEvery", \.renominateEvery, in: 1...100_000, help: "analyzed frames between nominations"),
        AnalyzerOption("nominationMinimumSize", \.nominationMinimumSize, in: .above(0, atMost: 1),
                       help: "smallest nominated box side, fraction of the frame's shorter side"),
        AnalyzerOption("maximumTracks", \.maximumTracks, in: 1...4096, help: "most live tracks"),
    ]
}

/// One object to follow, as given in ``TrackingConfiguration/seeds``.
public struct TrackingSeed: Equatable, Sendable {
    public var label: String?
    /// Normalized, lower-left origin.
    public var box: NormalizedRect
    /// The frame the track starts at (the first analyzed frame at or after it).
    public var frame: Int

    /// Parses `[label=]x,y,w,h[@frame]` entries separated by `;` (spaces allowed), or a JSON array
    /// of `{"box": [x, y, w, h], "label": "…", "frame": n}` objects.
    ///
    /// A box is normalized with a lower-left origin (Vision's convention), or, written
    /// `px:x,y,w,h`, in pixels from the top-left corner as image tools and OpenCV give it
    /// (`px:100,50,40,40`). Pixel boxes are converted with `frameSize`; without one (checking
    /// options before a recording is open) they are only checked, and stand as the whole frame.
    public static func parse(_ text: String, frameSize: (width: Int, height: Int)? = nil) throws(OptionError) -> [TrackingSeed] {
        if text.trimmingCharacters(in: " ").hasPrefix("[") { return try parseJSON(text) }
        var seeds: [TrackingSeed] = []
        for (n, raw) in text.split(separator: ";", omittingEmptySubsequences: false).enumerated() {
            let entry = raw.trimmingCharacters(in: " ")
            if entry.isEmpty { continue }
            func refuse(_ why: String) -> OptionError {
                let shown = entry.count <= 60 ? entry : entry.prefix(60) + "…"
                return OptionError(option: "seeds", .analyzerRule("seed \(n + 1) '\(shown)': \(why) (expected [label=]x,y,w,h[@frame])"))
            }
            var rest = Substring(entry)
            var label: String?
            if let eq = rest.firstIndex(of: "=") {
                let name = rest[..<eq].trimmingCharacters(in: " ")
                guard isLabel(name) else {
                    throw refuse("a label is letters, digits, '-' and '_'")
                }
                label = name
                rest = rest[rest.index(after: eq)...]
            }
            var frame = 0
            if let at = rest.firstIndex(of: "@") {
                guard let f = Int(rest[rest.index(after: at)...].trimmingCharacters(in: " ")), f >= 0 else {
                    throw refuse("the start frame after '@' must be a whole number ≥ 0")
                }
                frame = f
                rest = rest[..<at]
            }
            let box: NormalizedRect
            if rest.trimmingCharacters(in: " ").hasPrefix("px:") {
                box = try pixelBox(String(rest.trimmingCharacters(in: " ").dropFirst(3)), frameSize: frameSize, refuse: refuse)
            } else {
                guard let b = NormalizedRect(parsing: String(rest)) else { throw refuse("the box needs four numbers x,y,w,h") }
                if let problem = b.problem {
                    let looksLikePixels = b.array.contains { $0 > 1 }
                    throw refuse("the box is not inside the frame: \(problem)"
                        + (looksLikePixels ? "; boxes are normalized 0...1 with a lower-left origin, or in pixels from the top-left corner written px:x,y,w,h" : ""))
                }
                box = b
            }
            seeds.append(TrackingSeed(label: label, box: box, frame: frame))
        }
        return seeds
    }

    /// What is wrong with `text` as seeds, checked without a frame size, or `nil`.
    static func problem(in text: String) -> String? {
        do { _ = try parse(text) } catch { return error.message }
        return nil
    }

    /// `x,y,w,h` in pixels, top-left origin, as a normalized lower-left box in a frame of `frameSize`.
    private static func pixelBox(_ text: String, frameSize: (width: Int, height: Int)?,
                                 refuse: (String) -> OptionError) throws(OptionError) -> NormalizedRect {
        let numbers = text.split(separator: ",").map { Int($0.trimmingCharacters(in: " ")) }
        guard numbers.count == 4, let x = numbers[0], let y = numbers[1], let w = numbers[2], let h = numbers[3] else {
            throw refuse("a pixel box is px: and four whole numbers x,y,w,h (top-left corner, width, height)")
        }
        guard x >= 0, y >= 0, w > 0, h > 0, x <= 1 << 20, y <= 1 << 20, w <= 1 << 20, h <= 1 << 20 else {
            throw refuse("a pixel box needs x,y ≥ 0 and w,h ≥ 1")
        }
        guard let (width, height) = frameSize else { return .full }
        guard x + w <= width, y + h <= height else {
            throw refuse("pixel box \(x),\(y) \(w)×\(h) does not fit the \(width)×\(height) frame")
        }
        // Integer numerators, so px:32,18,32,36 in 320×180 is exactly 0.1,0.7,0.1,0.2.
        return NormalizedRect(pixelColumn: x, row: y, width: w, height: h, frameWidth: width, frameHeight: height)
    }

    /// A label is letters, digits, `-` and `_`, at least one.
    private static func isLabel(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    }

    private struct JSONSeed: Decodable {
        var box: [Double]
        var label: String?
        var frame: Int?
    }

    private static func parseJSON(_ text: String) throws(OptionError) -> [TrackingSeed] {
        let entries: [JSONSeed]
        do {
            entries = try JSONParser.parse(text).decode([JSONSeed].self)
        } catch {
            throw OptionError(option: "seeds", .analyzerRule("not a JSON array of {\"box\": [x, y, w, h], \"label\": …, \"frame\": …} objects: \(error)"))
        }
        var seeds: [TrackingSeed] = []
        for (n, e) in entries.enumerated() {
            func refuse(_ why: String) -> OptionError { OptionError(option: "seeds", .analyzerRule("seed \(n + 1): \(why)")) }
            guard e.box.count == 4 else { throw refuse("box needs four numbers [x, y, w, h], got \(e.box.count)") }
            let box = NormalizedRect(x: e.box[0], y: e.box[1], width: e.box[2], height: e.box[3])
            if let problem = box.problem { throw refuse("the box is not inside the frame: \(problem)") }
            if let label = e.label {
                guard isLabel(label) else {
                    throw refuse("a label is letters, digits, '-' and '_'")
                }
            }
            guard (e.frame ?? 0) >= 0 else { throw refuse("frame must be ≥ 0") }
            seeds.append(TrackingSeed(label: e.label, box: box, frame: e.frame ?? 0))
        }
        return seeds
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return String(s)
    }
}
