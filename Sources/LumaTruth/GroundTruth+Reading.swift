import LumaAnalysis
import LumaBase

/// A truth file that cannot be used, naming the file (and line of a label file) and what is wrong.
public typealias TruthError = FileProblem<TruthFile>

/// What a ``TruthError`` is about: a truth file, or a label file being imported.
public enum TruthFile {}

extension GroundTruth {
    /// Truth files larger than this are refused before they are read (64 MiB holds hours of boxes).
    public static let maximumFileBytes = 64 << 20

    /// Reads and checks a truth file (`*.truth.json`).
    ///
    /// Refuses, naming the file: a file that is not JSON or not a Lumatrace truth file, an unknown
    /// version, a ball point that is not `[frame, x, y, radius]` or a box that is not
    /// `[frame, x, y, w, h]`, frames out of order or outside `0..<frames`, and non-finite numbers.
    public static func read(_ path: String) throws(TruthError) -> GroundTruth {
        let bytes: [UInt8]
        do throws(SystemFile.WholeFileProblem) {
            bytes = try SystemFile.readWhole(path, maximumBytes: maximumFileBytes, acceptingPipes: true)
        } catch {
            switch error {
            case .notAFile: throw TruthError(path: path, reason: "\(error.description), not a truth file")
            case .tooLarge: throw TruthError(path: path, reason: "truth file \(error.description)")
            case .unreadable: throw TruthError(path: path, reason: error.description)
            }
        }
        guard !bytes.isEmpty else { throw TruthError(path: path, reason: "empty file (0 bytes): not a truth file") }
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch { throw TruthError(path: path, reason: "not valid JSON: \(error)") }
        let truth: GroundTruth
        do { truth = try GroundTruth(json: json) } catch {
            throw TruthError(path: path, reason: "not a Lumatrace truth file (\(error))")
        }
        try truth.validate(path: path)
        return truth
    }

    /// Checks the file's own consistency (see ``read(_:)``).
    public func validate(path: String) throws(TruthError) {
        guard format == "lumatrace-truth" else {
            throw TruthError(path: path, reason: "\"format\" is \"\(format)\", expected \"lumatrace-truth\"")
        }
        guard version == 1 else {
            throw TruthError(path: path, reason: "truth format version \(version) is not supported (this build reads version 1)")
        }
        guard width > 0, height > 0, frames >= 0 else {
            throw TruthError(path: path, reason: "width, height and frames must be positive (got \(width)x\(height), \(frames) frames)")
        }
        for segment in ballSegments {
            try Self.checkPoints(segment.points, values: 4, shape: "[frame, x, y, radius]", owner: "ball segment \(segment.id)",
                                 frames: frames, path: path)
        }
        for track in objectTracks {
            try Self.checkPoints(track.points, values: 5, shape: "[frame, x, y, w, h]", owner: "object track \(track.id)",
                                 frames: frames, path: path)
        }
    }

    /// Checks that this truth describes a recording with `frameCount` frames of `width`×`height`:
    /// a truth point past the recording's end is refused with its frame named.
    public func check(againstFrames frameCount: Int, width: Int, height: Int, path: String) throws(TruthError) {
        let last = (ballSegments.flatMap(\.points) + objectTracks.flatMap(\.points)).map { Int($0[0]) }.max()
        if let last, last >= frameCount {
            let owner = ballSegments.first { $0.points.contains { Int($0[0]) == last } }.map { "ball segment \($0.id)" }
                ?? objectTracks.first { $0.points.contains { Int($0[0]) == last } }.map { "object track \($0.id)" } ?? "a point"
            throw TruthError(path: path, reason: "\(owner) has a point at frame \(last), past the recording's last frame \(frameCount - 1)")
        }
        // Full-width products: the sizes come from files and must not overflow.
        if width.multipliedFullWidth(by: self.height) != height.multipliedFullWidth(by: self.width) {
            throw TruthError(path: path, reason: "truth is for \(self.width)x\(self.height) frames, the recording is \(width)x\(height) (a different aspect ratio)")
        }
    }

    private static func checkPoints(_ points: [[Double]], values: Int, shape: String, owner: String, frames: Int,
                                    path: String) throws(TruthError) {
        var previous = -1
        for (i, p) in points.enumerated() {
            guard p.count == values, p.allSatisfy(\.isFinite) else {
                throw TruthError(path: path, reason: "\(owner): point \(i + 1) is not \(shape) with finite numbers")
            }
            // `Int(exactly:)`: a finite number past Int's range (1e300) is refused, not a trap.
            guard let frame = Int(exactly: p[0]), frame >= 0 else {
                throw TruthError(path: path, reason: "\(owner): point \(i + 1) has frame \(p[0]), not a frame index")
            }
            guard frame > previous else {
                throw TruthError(path: path, reason: "\(owner): frame \(frame) comes after frame \(previous) (points must be in frame order)")
            }
            guard frame < frames else {
                throw TruthError(path: path, reason: "\(owner): frame \(frame) is past the file's \(frames) frames")
            }
            previous = frame
        }
    }
}
