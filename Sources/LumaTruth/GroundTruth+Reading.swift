import LumaAnalysis
import LumaBase

extension GroundTruth {
    /// Truth files larger than this are refused before they are read (64 MiB holds hours of boxes).
    public static let maximumFileBytes = 64 << 20

    /// Reads and checks a truth file (`*.truth.json`).
    ///
    /// Refuses, naming the file: a file that is not JSON or not a Lumatrace truth file, an unknown
    /// version, a ball point that is not `[frame, x, y, radius]` or a box that is not
    /// `[frame, x, y, w, h]`, frames out of order or outside `0..<frames`, non-finite numbers and
    /// values beyond ±``valueLimit``, a ball radius of zero or less, and a segment or track with no point.
    public static func read(_ path: String) throws(TruthError) -> GroundTruth {
        let bytes: [UInt8]
        do throws(SystemFile.WholeFileProblem) {
            bytes = try SystemFile.readWhole(path, maximumBytes: maximumFileBytes, acceptingPipes: true)
        } catch {
            switch error {
            case .notAFile(let kind): throw TruthError(path: path, .notAFile(found: kind.inWords))
            case .tooLarge(let bytes, let limit): throw TruthError(path: path, .tooLarge(bytes: bytes, limit: limit))
            case .unreadable(let failure): throw TruthError(path: path, .unreadable(failure))
            }
        }
        guard !bytes.isEmpty else { throw TruthError(path: path, .empty) }
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch { throw TruthError(path: path, .notJSON(error)) }
        let truth: GroundTruth
        do { truth = try GroundTruth(json: json) } catch {
            throw TruthError(path: path, .notTruth(error))
        }
        try truth.validate(path: path)
        return truth
    }

    /// Checks the file's own consistency (see ``read(_:)``).
    public func validate(path: String) throws(TruthError) {
        guard format == "lumatrace-truth" else {
            throw TruthError(path: path, .wrongFormat(found: format))
        }
        guard version == 1 else {
            throw TruthError(path: path, .unsupportedVersion(version))
        }
        guard width > 0, height > 0, frames >= 0 else {
            throw TruthError(path: path, .sizeNotPositive(width: width, height: height, frames: frames))
        }
        for segment in ballSegments {
            // A segment of no points would score as found by anything; a track of no points (an
            // object never in view) only has nothing to score.
            guard !segment.points.isEmpty else { throw TruthError(path: path, .noPoints(owner: "ball segment \(segment.id)")) }
            try Self.checkPoints(segment.points, values: 4, shape: "[frame, x, y, radius]", owner: "ball segment \(segment.id)",
                                 frames: frames, path: path)
        }
        for track in objectTracks {
            try Self.checkPoints(track.points, values: 5, shape: "[frame, x, y, w, h]", owner: "object track \(track.id)",
                                 frames: frames, path: path)
        }
    }

    /// Checks that this truth describes a recording with `frameCount` frames of `width`×`height`:
    /// a truth of more frames than the recording, or a point past the recording's end, is
    /// refused with its frame named.
    public func check(againstFrames frameCount: Int, width: Int, height: Int, path: String) throws(TruthError) {
        let last = (ballSegments.flatMap(\.points) + objectTracks.flatMap(\.points)).map { Int($0[0]) }.max()
        if let last, last >= frameCount {
            let owner = ballSegments.first { $0.points.contains { Int($0[0]) == last } }.map { "ball segment \($0.id)" }
                ?? objectTracks.first { $0.points.contains { Int($0[0]) == last } }.map { "object track \($0.id)" } ?? "a point"
            throw TruthError(path: path, .pointPastRecording(owner: owner, frame: last, lastFrame: frameCount - 1))
        }
        guard frames <= frameCount else { throw TruthError(path: path, .framesPastRecording(frames: frames, frameCount: frameCount)) }
        // Full-width products: the sizes come from files and must not overflow.
        if width.multipliedFullWidth(by: self.height) != height.multipliedFullWidth(by: self.width) {
            throw TruthError(path: path, .aspectRatio(truthWidth: self.width, truthHeight: self.height, width: width, height: height))
        }
    }

    /// The largest coordinate, size or radius a truth point may hold: the event log's limit for
    /// an observation (normalized coordinates are about 0...1), so truth and events compare.
    public static let valueLimit = 1e6

    private static func checkPoints(_ points: [[Double]], values: Int, shape: String, owner: String, frames: Int,
                                    path: String) throws(TruthError) {
        var previous = -1
        for (i, p) in points.enumerated() {
            guard p.count == values, p.allSatisfy(\.isFinite) else {
                throw TruthError(path: path, .pointNotShape(owner: owner, point: i + 1, shape: shape))
            }
            if let far = p.dropFirst().first(where: { abs($0) > valueLimit }) {
                throw TruthError(path: path, .pointValueOutOfRange(owner: owner, point: i + 1, value: far, limit: valueLimit))
            }
            if values == 4, p[3] <= 0 { throw TruthError(path: path, .radiusNotPositive(owner: owner, point: i + 1, radius: p[3])) }
            // `Int(exactly:)`: a finite number past Int's range (1e300) is refused, not a trap.
            guard let frame = Int(exactly: p[0]), frame >= 0 else {
                throw TruthError(path: path, .pointFrameNotIndex(owner: owner, point: i + 1, frame: p[0]))
            }
            guard frame > previous else {
                throw TruthError(path: path, .pointsOutOfOrder(owner: owner, frame: frame, previous: previous))
            }
            guard frame < frames else {
                throw TruthError(path: path, .pointPastFrames(owner: owner, frame: frame, frames: frames))
            }
            previous = frame
        }
    }
}
