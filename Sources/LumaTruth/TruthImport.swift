/// Converts other datasets' label files into ``GroundTruth``.
///
/// Every importer takes the label file's text, the frame size in pixels (labels are in pixels,
/// truth is normalized with a lower-left origin) and, when known, the recording's frame count;
/// labels for frames past it are refused with the line named, and so are labels whose numbers
/// normalize to values a truth file cannot hold. Lines may be separated by LF or CRLF; values by
/// commas, tabs or spaces; a leading byte order mark is skipped.
public enum TruthImport {
    /// The label formats ``GroundTruth/imported(_:from:path:geometry:)`` reads.
    public enum Format: String, CaseIterable, Sendable {
        /// OTB `groundtruth_rect.txt`: one `x,y,w,h` box per frame, 1-based pixel coordinates of the
        /// top-left corner. `0,0,0,0` or `NaN` marks a frame without the target.
        case otb
        /// VOT `groundtruth.txt`: one polygon `x1,y1,…,x4,y4` (or a box `x,y,w,h`) per frame, 0-based
        /// pixel coordinates; a polygon becomes its axis-aligned bounding box. `NaN` marks a frame
        /// without the target.
        case vot
        /// TrackNet ball labels (CSV, a header line, then `frame, visibility, x, y` per frame, pixel
        /// coordinates of the ball's centre); visibility 0 means not visible. Runs of visible
        /// frames become ball segments (see ``Geometry/maximumGap``).
        case tracknet
    }

    /// What the labels do not say themselves.
    public struct Geometry: Sendable {
        public var width: Int
        public var height: Int
        /// The recording's frame count, or `nil` to take it from the labels.
        public var frames: Int?
        /// The first label line describes this frame of the recording (OTB and VOT), e.g. when the
        /// recording has frames before the labelled sequence starts.
        public var firstFrame: Int
        /// TrackNet: the ball's radius in pixels (the labels have none); scoring accepts a found
        /// point within `2 px + radius / 2` of the label.
        public var ballRadius: Double
        /// TrackNet: a run of more than this many frames without the ball starts a new segment.
        public var maximumGap: Int

        public init(width: Int, height: Int, frames: Int? = nil, firstFrame: Int = 0, ballRadius: Double = 5, maximumGap: Int = 2) {
            self.width = width
            self.height = height
            self.frames = frames
            self.firstFrame = firstFrame
            self.ballRadius = ballRadius
            self.maximumGap = maximumGap
        }
    }
}

extension GroundTruth {
    /// Converts a label file's `text` (named `path` in errors and notes) into truth.
    public static func imported(_ format: TruthImport.Format, from text: String, path: String,
                                geometry: TruthImport.Geometry) throws(TruthError) -> GroundTruth {
        guard geometry.width > 0, geometry.height > 0 else {
            throw TruthError(path: path, .frameSizeNotPositive(width: geometry.width, height: geometry.height))
        }
        let rows = try LabelRows(text: text, path: path, skipHeader: format == .tracknet)
        switch format {
        case .otb, .vot: return try importBoxes(format, rows: rows, path: path, geometry: geometry)
        case .tracknet: return try importBalls(rows: rows, path: path, geometry: geometry)
        }
    }

    private static func importBoxes(_ format: TruthImport.Format, rows: LabelRows, path: String,
                                    geometry g: TruthImport.Geometry) throws(TruthError) -> GroundTruth {
        let truthPoints = TruthPoints(frameWidth: g.width, frameHeight: g.height)
        let frames = g.frames ?? g.firstFrame + rows.values.count
        var points: [[Double]] = []
        var absent = 0
        for (i, v) in rows.values.enumerated() {
            let line = rows.lines[i], frame = g.firstFrame + i
            guard v.count == 4 || (format == .vot && v.count == 8) else {
                let expected = format == .otb ? "4 values (x,y,w,h)" : "8 values (a polygon) or 4 (x,y,w,h)"
                throw TruthError(path: path, line: line, .rowValueCount(found: v.count, expected: expected))
            }
            guard frame < frames else {
                throw TruthError(path: path, line: line, .rowPastRecording(frame: frame, lastFrame: frames - 1))
            }
            // Left, top, right, bottom in continuous 0-based pixel coordinates.
            var box: (Double, Double, Double, Double)
            if v.count == 8 {
                let xs = [v[0], v[2], v[4], v[6]], ys = [v[1], v[3], v[5], v[7]]
                box = (xs.min()!, ys.min()!, xs.max()!, ys.max()!)
            } else {
                let origin = format == .otb ? 1.0 : 0.0
                box = (v[0] - origin, v[1] - origin, v[0] - origin + v[2], v[1] - origin + v[3])
            }
            guard v.allSatisfy(\.isFinite), box.2 > box.0, box.3 > box.1 else {
                absent += 1
                continue
            }
            points.append(try inRange(truthPoints.box(frame: frame, left: box.0, top: box.1, right: box.2, bottom: box.3), row: v,
                                      line: line, path: path))
        }
        let name = format == .otb ? "OTB groundtruth_rect.txt" : "VOT groundtruth.txt"
        let notes = "Imported from \(name) labels '\(path)': \(points.count) boxes"
            + (absent > 0 ? ", \(absent) frames without the target" : "")
            + (g.firstFrame > 0 ? ", first label at frame \(g.firstFrame)" : "")
            + (format == .vot ? ". Polygons became their axis-aligned bounding boxes" : ". 1-based pixel boxes made 0-based")
            + "; normalized to \(g.width)x\(g.height) with a lower-left origin."
        return GroundTruth(width: g.width, height: g.height, frames: frames, notes: notes,
                           objectTracks: [ObjectTrack(id: "object1", points: points)])
    }

    private static func importBalls(rows: LabelRows, path: String, geometry g: TruthImport.Geometry) throws(TruthError) -> GroundTruth {
        guard g.ballRadius > 0, g.ballRadius.isFinite else {
            throw TruthError(path: path, .ballRadiusNotPositive(g.ballRadius))
        }
        let truthPoints = TruthPoints(frameWidth: g.width, frameHeight: g.height)
        var visible: [(frame: Int, x: Double, y: Double, line: Int)] = []
        var last = -1
        for (i, v) in rows.values.enumerated() {
            let line = rows.lines[i]
            guard v.count >= 4 else { throw TruthError(path: path, line: line, .rowValueCount(found: v.count, expected: "frame, visibility, x, y")) }
            guard v[0].isFinite, v[0] >= 0, v[0] == v[0].rounded(), v[0] < 1e9 else {
                throw TruthError(path: path, line: line, .rowFrameNotIndex(v[0]))
            }
            let frame = Int(v[0])
            guard frame > last else { throw TruthError(path: path, line: line, .rowsOutOfOrder(frame: frame, previous: last)) }
            last = frame
            if let frames = g.frames, frame >= frames {
                throw TruthError(path: path, line: line, .rowPastRecording(frame: frame, lastFrame: frames - 1))
            }
            guard v[1] != 0, v[2].isFinite, v[3].isFinite else { continue }
            visible.append((frame, v[2], v[3], line))
        }
        var segments: [BallSegment] = []
        var current: [[Double]] = []
        func close(_ end: String) {
            guard !current.isEmpty else { return }
            let n = segments.count + 1
            segments.append(BallSegment(id: "ball1.\(n)", ball: "ball1", end: end, points: current))
            current = []
        }
        for p in visible {
            if let previous = current.last, p.frame - Int(previous[0]) - 1 > g.maximumGap { close("lost") }
            current.append(try inRange(truthPoints.ball(frame: p.frame, pixelX: p.x, pixelY: p.y, radius: g.ballRadius), row: [p.x, p.y],
                                       line: p.line, path: path))
        }
        close("end")
        let frames = g.frames ?? last + 1
        let notes = "Imported from TrackNet ball labels '\(path)': \(visible.count) visible frames in \(segments.count) segments "
            + "(a gap of more than \(g.maximumGap) frames starts a new one; the labels mark no bounces, so a segment may span several flights). "
            + "Ball radius \(g.ballRadius) px (not in the labels). Normalized to \(g.width)x\(g.height) with a lower-left origin."
        return GroundTruth(width: g.width, height: g.height, frames: frames, notes: notes, ballSegments: segments)
    }
}

extension GroundTruth {
    /// `point`, made from the label `row` on `line`, when its values are ones a truth file holds
    /// (within ±``valueLimit``); else a refusal naming the line and the label's largest value, so
    /// an import never writes a file that ``read(_:)`` refuses.
    fileprivate static func inRange(_ point: [Double], row: [Double], line: Int, path: String) throws(TruthError) -> [Double] {
        guard point.dropFirst().allSatisfy({ $0.isFinite && abs($0) <= valueLimit }) else {
            let largest = row.filter(\.isFinite).max { abs($0) < abs($1) } ?? .infinity
            throw TruthError(path: path, line: line, .labelOutOfRange(value: largest, limit: valueLimit))
        }
        return point
    }
}

/// The numbers of a label file, one row per non-empty line, with the 1-based line each came from.
private struct LabelRows {
    var values: [[Double]] = []
    var lines: [Int] = []

    init(text: String, path: String, skipHeader: Bool) throws(TruthError) {
        var headerSkipped = !skipHeader
        // A byte order mark (U+FEFF, which some editors write first in UTF-8 files) is no field.
        let text = text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
        // Swift reads "\r\n" as one newline character, so CRLF files split like LF ones.
        for (n, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let fields = raw.split(whereSeparator: { $0 == "," || $0 == "\t" || $0 == " " })
            if fields.isEmpty { continue }
            if !headerSkipped {
                headerSkipped = true
                if Double(fields[0]) == nil { continue }
            }
            var row: [Double] = []
            for field in fields {
                guard let v = Double(field) else {
                    throw TruthError(path: path, line: n + 1, .notANumber(String(field.prefix(20))))
                }
                row.append(v)
            }
            values.append(row)
            lines.append(n + 1)
        }
        guard !values.isEmpty else { throw TruthError(path: path, .noLabels) }
    }
}
