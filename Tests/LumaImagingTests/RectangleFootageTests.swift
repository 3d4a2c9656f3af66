import Foundation
import Testing
import LumaTestSupport
@testable import LumaImaging

/// A frame of a shared clip as the `rectangles` analyzer sees it: the coded luma (ffmpeg's
/// `extractplanes=y`, as `lumatrace record` keeps it) shrunk by block averaging until its longer side
/// is at most 480 pixels.
private struct FootageFrame {
    var pixels: [UInt8]
    var width: Int, height: Int
    /// Full-resolution pixels per pixel here.
    var factor: Int

    struct Failure: Error, CustomStringConvertible { var description: String }

    static func load(_ video: String, frame: Int) throws -> FootageFrame {
        let clip = try ClipCorpus.require().appendingPathComponent(video).path
        let ffmpeg = try ExternalTool.ffmpeg.require()
        let probe = try ProgramRun.run(.ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                                        "stream=width,height", "-of", "csv=p=0", clip])
        let size = probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
        guard size.count == 2 else { throw Failure(description: "\(clip): ffprobe said \(probe.stdout)") }
        let raw = Scratch.path("\(video.replacingOccurrences(of: "/", with: "-"))-\(frame).gray")
        let run = try ProgramRun.run(ffmpeg, ["-nostdin", "-v", "error", "-y", "-i", clip, "-vf", "select=eq(n\\,\(frame)),extractplanes=y",
                                              "-frames:v", "1", "-pix_fmt", "gray", "-f", "rawvideo", raw])
        guard run.status == 0, let data = FileManager.default.contents(atPath: raw), data.count == size[0] * size[1] else {
            throw Failure(description: "\(clip): ffmpeg gave no frame \(frame): \(run.stderr)")
        }
        let full = [UInt8](data)
        let factor = Downsample.factor(shrinking: max(size[0], size[1]), toAtMost: 480)
        let region = PixelRect(width: size[0], height: size[1])
        let (w, h) = Downsample.outputSize(of: region, factor: factor)
        var pixels = [UInt8](repeating: 0, count: w * h)
        full.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer {
                Downsample.boxAverage(GrayImage(pixels: source, width: size[0], height: size[1]), region: region, factor: factor, into: $0)
            }
        }
        return FootageFrame(pixels: pixels, width: w, height: h, factor: factor)
    }

    /// Paints a quadrilateral of flat `luma` with 4×4-supersampled edges.
    mutating func paint(_ corners: [(x: Double, y: Double)], luma: UInt8) {
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let x0 = max(0, Int(xs.min()!) - 1), x1 = min(width - 1, Int(xs.max()!) + 1)
        let y0 = max(0, Int(ys.min()!) - 1), y1 = min(height - 1, Int(ys.max()!) + 1)
        guard x0 <= x1, y0 <= y1 else { return }
        func inside(_ x: Double, _ y: Double) -> Bool {
            var sign = 0.0
            for i in 0..<4 {
                let p = corners[i], q = corners[(i + 1) % 4]
                let s = (q.x - p.x) * (y - p.y) - (q.y - p.y) * (x - p.x)
                if s != 0 { if sign != 0 && (s > 0) != (sign > 0) { return false }; sign = s }
            }
            return true
        }
        for y in y0...y1 {
            for x in x0...x1 {
                var hits = 0
                for sy in 0..<4 { for sx in 0..<4 where inside(Double(x) + (Double(sx) + 0.5) / 4, Double(y) + (Double(sy) + 0.5) / 4) { hits += 1 } }
                guard hits > 0 else { continue }
                let i = y * width + x
                pixels[i] = UInt8((Int(pixels[i]) * (16 - hits) + Int(luma) * hits + 8) / 16)
            }
        }
    }

    /// The shade of a card with these corners that stands out most along its outline: dark (30)
    /// when the darkest tenth of the background just outside the outline is further above 30 than
    /// the brightest tenth is below 225, else bright (225). A card can still meet a background of
    /// its own shade along part of a side, as on a real desk.
    func cardShade(for corners: [(x: Double, y: Double)]) -> UInt8 {
        let cx = corners.map(\.x).reduce(0, +) / 4, cy = corners.map(\.y).reduce(0, +) / 4
        var ring: [UInt8] = []
        for i in 0..<4 {
            let (p, q) = (corners[i], corners[(i + 1) % 4])
            for t in 0..<40 {
                let f = Double(t) / 40
                var (x, y) = (p.x + (q.x - p.x) * f, p.y + (q.y - p.y) * f)
                let (dx, dy) = (x - cx, y - cy)
                let norm = (dx * dx + dy * dy).squareRoot()
                (x, y) = (x + 3 * dx / norm, y + 3 * dy / norm)
                guard x >= 0, y >= 0, Int(x) < width, Int(y) < height else { continue }
                ring.append(pixels[Int(y) * width + Int(x)])
            }
        }
        ring.sort()
        guard !ring.isEmpty else { return 225 }
        let darkest = Int(ring[ring.count / 10]), brightest = Int(ring[ring.count * 9 / 10])
        return darkest - 30 > 225 - brightest ? 30 : 225
    }
}

/// A quadrilateral known to be in a frame, corners top-left first and clockwise on screen.
private struct KnownQuadrilateral: CustomStringConvertible {
    var label: String
    var corners: [(x: Double, y: Double)]

    var description: String { label }

    /// Whether `q`'s corners each lie within `tolerance` × the shorter side, and at least
    /// `pixel` (the size of one analyzed pixel in these coordinates) × 1.5.
    func isFound(as q: DetectedQuadrilateral, tolerance: Double, pixel: Double) -> Bool {
        let reach = max(1.5 * pixel, tolerance * RectangleDetector.sideLengths(corners).min()!)
        return zip(q.corners, corners).allSatisfy { ($0.x - $1.x) * ($0.x - $1.x) + ($0.y - $1.y) * ($0.y - $1.y) <= reach * reach }
    }
}

/// What a detector found among known quadrilaterals.
private struct Recall {
    var found = 0, total = 0
    var missed: [String] = []
    var text: String { "\(found) of \(total)" }
}

@Suite("Rectangles on real footage: shapes whose outline touches other edges")
struct RectangleFootageTests {
    /// Rectangles annotated by hand on the first frame of shared clips, full-resolution pixels (a
    /// corner is where the two sides' boundary lines meet, read on an 8× enlargement; a corner hidden
    /// behind something is where the visible sides' lines meet).
    private static let annotated: [(clip: String, rectangles: [KnownQuadrilateralSpec])] = [
        ("basketball-court-shots/three_score_two_miss.mp4", [
            // The white board inside its dark frame; the hoop and net cover its lower left, the
            // steel arms and the fence touch it on the right.
            .init("court: backboard", [(603.75, 130), (699.5, 85.5), (700.5, 187.5), (604.5, 214.5)]),
        ]),
        ("freethrow-basketball-side/FreeThrow.mp4", [
            .init("freethrow: small window", [(465, 226), (491.7, 225.3), (492.3, 247.3), (466.3, 248.3)]),
            .init("freethrow: window 2", [(566, 220), (612.7, 217.7), (615.7, 262.7), (569.3, 264.3)]),
            .init("freethrow: window 3", [(655.3, 214.3), (704.3, 212.7), (710, 257.7), (659.3, 259.3)]),
            .init("freethrow: window 4", [(762.3, 208.3), (803.3, 206), (809, 251.7), (769, 255)]),
        ]),
        ("opencv-vtest-pedestrians/vtest.avi", [
            // A sign on a lamp post: the post runs into its top and bottom edges.
            .init("vtest: sign on a post", [(413.1, 203.1), (442.75, 202.9), (443.75, 243.1), (414.75, 243.1)]),
        ]),
    ]

    /// Frames cards are laid on: busy real backgrounds (a fence, trees, a house, a road).
    private static let backgrounds = ["basketball-court-shots/three_score_two_miss.mp4", "freethrow-basketball-side/FreeThrow.mp4",
                              "opencv-vtest-pedestrians/vtest.avi", "juggling-3ball-cascade/ss3_id_01.mp4"]

    static func detector(linesToo: Bool) -> RectangleDetector {
        var detector = RectangleDetector()
        detector.settings.minimumSide = 8
        detector.settings.assemblesLineSegments = linesToo
        return detector
    }

    /// Every detection of `frame`, in the frame's full-resolution pixels.
    private static func detections(_ frame: FootageFrame, linesToo: Bool) -> [DetectedQuadrilateral] {
        var detector = detector(linesToo: linesToo)
        let k = Double(frame.factor)
        return frame.pixels.withUnsafeBufferPointer { detector.detect($0, width: frame.width, height: frame.height) }
            .map { DetectedQuadrilateral(corners: $0.corners.map { ($0.x * k, $0.y * k) }, confidence: $0.confidence) }
    }

    /// Recall on the annotated rectangles: found when some detection has every corner within 8% of
    /// the shorter side (a frame's border is a few pixels wide; which of its edges is "the" side is
    /// a matter of taste).
    private static func annotatedRecall(linesToo: Bool) throws -> Recall {
        var recall = Recall()
        for (clip, rectangles) in annotated {
            let frame = try FootageFrame.load(clip, frame: 0)
            let found = detections(frame, linesToo: linesToo)
            for r in rectangles {
                recall.total += 1
                if found.contains(where: { r.known.isFound(as: $0, tolerance: 0.08, pixel: Double(frame.factor)) }) {
                    recall.found += 1
                } else {
                    recall.missed.append(r.known.label)
                }
            }
        }
        return recall
    }

    /// Cards laid on the first frame of each background, six per frame, each with a pen of the same
    /// shade lying across one of its sides, so that the card's outline runs into the pen's and into
    /// whatever edges of the scene it touches. Found when some detection has every corner within 5%
    /// of the shorter side (corners are exact here).
    private static func cardRecall(linesToo: Bool) throws -> Recall {
        var recall = Recall()
        for (b, clip) in backgrounds.enumerated() {
            let background = try FootageFrame.load(clip, frame: 0)
            for k in 0..<6 {
                var random = SeededGenerator(seed: UInt64(100 * b + k))
                var frame = background
                let card = Self.card(in: frame, random: &random)
                let luma = frame.cardShade(for: card)
                frame.paint(card, luma: luma)
                frame.paint(Self.pen(across: card, random: &random), luma: luma)
                let scale = Double(frame.factor)
                let known = KnownQuadrilateral(label: "\(clip) card \(k)", corners: card.map { (x: $0.x * scale, y: $0.y * scale) })
                recall.total += 1
                if detections(frame, linesToo: linesToo).contains(where: { known.isFound(as: $0, tolerance: 0.05, pixel: scale) }) {
                    recall.found += 1
                } else {
                    recall.missed.append(known.label)
                }
            }
        }
        return recall
    }

    /// A card seen in mild perspective, in full-resolution pixels: shorter side 16–32% of the
    /// frame's smaller dimension, aspect 0.55–1, turned up to 25°, each corner moved by up to 5% of the
    /// shorter side; inside the frame with a margin.
    private static func card(in frame: FootageFrame, random: inout SeededGenerator) -> [(x: Double, y: Double)] {
        let (w, h) = (Double(frame.width * frame.factor), Double(frame.height * frame.factor))
        let short = min(w, h) * random.uniform(in: 0.16...0.32)
        let long = short / random.uniform(in: 0.55...1)
        let degrees = random.uniform(in: -25...25)
        let (c, s) = (RectangleDetector.sine(degrees: 90 - abs(degrees)), RectangleDetector.sine(degrees: abs(degrees)) * (degrees < 0 ? -1 : 1))
        let half = (long + short) / 2 + 4
        let cx = random.uniform(in: half...(w - half)), cy = random.uniform(in: half...(h - half))
        let (a, b) = random.unit() < 0.5 ? (long, short) : (short, long)
        return [(-a / 2, -b / 2), (a / 2, -b / 2), (a / 2, b / 2), (-a / 2, b / 2)].map { p in
            (cx + p.0 * c - p.1 * s + random.uniform(in: -0.05...0.05) * short,
             cy + p.0 * s + p.1 * c + random.uniform(in: -0.05...0.05) * short)
        }.map { (x: $0.0 / Double(frame.factor), y: $0.1 / Double(frame.factor)) }
    }

    /// A pen 3 pixels wide lying across a side of `card` (analysis pixels), from a third of the
    /// way into the card to well outside it.
    private static func pen(across card: [(x: Double, y: Double)], random: inout SeededGenerator) -> [(x: Double, y: Double)] {
        let side = Int(random.next() % 4)
        let (p, q) = (card[side], card[(side + 1) % 4])
        let t = random.uniform(in: 0.3...0.7)
        let m = (x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t)
        let cx = card.map(\.x).reduce(0, +) / 4, cy = card.map(\.y).reduce(0, +) / 4
        // Outwards from the centre through the side, tilted by up to 30°.
        var (dx, dy) = (m.x - cx, m.y - cy)
        let norm = (dx * dx + dy * dy).squareRoot()
        (dx, dy) = (dx / norm, dy / norm)
        let tilt = random.uniform(in: -0.5...0.5)
        (dx, dy) = (dx - tilt * dy, dy + tilt * dx)
        let n2 = (dx * dx + dy * dy).squareRoot()
        (dx, dy) = (dx / n2, dy / n2)
        let from = (x: m.x - dx * norm / 3, y: m.y - dy * norm / 3), to = (x: m.x + dx * 40, y: m.y + dy * 40)
        let (nx, ny) = (-dy * 1.5, dx * 1.5)
        return [(from.x + nx, from.y + ny), (to.x + nx, to.y + ny), (to.x - nx, to.y - ny), (from.x - nx, from.y - ny)]
    }

    @Test("hand-annotated rectangles on real frames (a backboard with its hoop and fence, windows, a sign on a post): at least 4 of 6 found, twice what the outline stage finds alone",
          .clipCorpus)
    func annotatedRectangles() throws {
        let withLines = try Self.annotatedRecall(linesToo: true), outlines = try Self.annotatedRecall(linesToo: false)
        TestFigures.record("rectangle-quality: annotated \(withLines.text) (outline stage alone \(outlines.text)); missed: \(withLines.missed.joined(separator: ", "))",
                           named: "rectangle-quality-annotated.txt")
        // Measured 2026-11-25: 4 of 6 (the small window's top side is taken from the eave above it;
        // the sign's sides are swallowed by its post); the outline stage alone: 2 of 6.
        #expect(withLines.found >= 4, "missed: \(withLines.missed)")
        #expect(withLines.found >= 2 * outlines.found)
    }

    @Test("cards laid on real frames with a pen across a side: at least 90% found; the outline stage alone finds under half",
          .clipCorpus)
    func cardsTouchingEdges() throws {
        let withLines = try Self.cardRecall(linesToo: true), outlines = try Self.cardRecall(linesToo: false)
        TestFigures.record("rectangle-quality: cards \(withLines.text) (outline stage alone \(outlines.text)); missed: \(withLines.missed.joined(separator: ", "))",
                           named: "rectangle-quality-cards.txt")
        #expect(Double(withLines.found) >= 0.9 * Double(withLines.total), "missed: \(withLines.missed)")
        #expect(2 * outlines.found < outlines.total)
    }
}

/// A ``KnownQuadrilateral`` as written in the annotation table.
private struct KnownQuadrilateralSpec {
    var known: KnownQuadrilateral
    init(_ label: String, _ corners: [(Double, Double)]) {
        known = KnownQuadrilateral(label: label, corners: corners.map { (x: $0.0, y: $0.1) })
    }
}
