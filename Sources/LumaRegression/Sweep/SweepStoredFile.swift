import LumaAnalysis
import LumaBase

/// How a sweep's files on disk (stored scores, parts) are written and read: JSON whose numbers
/// read back exactly (a score's point errors are joined and their median taken after reading, so
/// the outputs are those of a sweep that never stopped), with a format name and version checked
/// first, and a size read whole only under a limit.
enum SweepStoredFile {
    /// A file larger than this is refused before it is read (a part of a thousand recordings
    /// through a hundred settings is a few megabytes).
    static let maximumBytes = 64 << 20

    /// The bytes of `value`: its keys in the order the type encodes them, every number as the
    /// shortest text that reads back to it exactly (``JSONValue/withExactNumbers``), one line.
    static func bytes(_ value: some Encodable) throws -> [UInt8] {
        Array(try JSONValueEncoder.encode(value).withExactNumbers.serialized.utf8) + [0x0A]
    }

    /// Reads `path` as a `T` of `format` (described as `kind` in refusals), version `version`.
    /// A file of an earlier version of Lumatrace (written by Foundation's encoder, keys
    /// sorted) reads the same.
    static func read<T: Decodable>(_ type: T.Type, from path: String, format: String, version: Int, kind: String) throws(SweepFileError) -> T {
        let fail = { (problem: SweepFileError.Problem) in SweepFileError(path: path, problem: problem) }
        let bytes: [UInt8]
        do throws(SystemFile.WholeFileProblem) { bytes = try SystemFile.readWhole(path, maximumBytes: maximumBytes) } catch {
            switch error {
            case .unreadable(let failure): throw fail(.unreadable(failure))
            case .notAFile(let kind): throw fail(.notAFile(found: kind.inWords))
            case .tooLarge: throw fail(.tooLarge(limit: maximumBytes))
            }
        }
        guard let value = try? JSONParser.parse(bytes), value.objectValue != nil else {
            throw fail(.notA(kind: kind, .notAnObject))
        }
        guard value["format"]?.stringValue == format else { throw fail(.notA(kind: kind, .noFormat(format))) }
        guard let found = value["version"]?.intValue, found == version else {
            throw fail(.version(found: value["version"]?.intValue ?? 0, readable: version))
        }
        do { return try JSONValueDecoder.decode(T.self, from: value) } catch {
            throw fail(.notA(kind: kind, Self.shape(of: error)))
        }
    }

    /// What a decoding failure shows of the file.
    private static func shape(of error: Error) -> SweepFileError.Shape {
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?: return .missingField(key: key.stringValue, location: location(context))
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?: return .wrongType(location: location(context))
        default: return .undecodable
        }
    }

    /// Where in the file a decoding failure is, as `.scores[3].f1` (empty for the top object).
    private static func location(_ context: DecodingError.Context) -> String {
        context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
    }
}

extension SweepScore {
    /// The largest count a stored score may hold: far above any corpus, far below where a sum of
    /// a million of them overflows.
    static let maximumCount = 1 << 40

    /// What makes a score read from a file one no sweep writes (``implausibility(frames:)``).
    public enum Implausibility: Error, Sendable, Equatable, CustomStringConvertible {
        /// A count outside `0...maximum`.
        case countOutside(field: String, value: Int, maximum: Int)
        /// A number that is not finite, or a ratio outside 0...1.
        case numberOutside(field: String, value: Double)
        /// More segments found than the truth holds.
        case foundAboveSegments(found: Int, segments: Int)
        /// More correct trajectories than were reported.
        case correctAboveReported(correct: Int, reported: Int)
        /// More segments found than correct trajectories (each found segment is followed by one).
        case foundAboveCorrect(found: Int, correct: Int)
        /// Point errors not one per point of the correct trajectories: at least one per correct
        /// trajectory, at most one per frame of the recording for each.
        case pointErrorCount(count: Int, correct: Int, frames: Int)
        /// A point error below 0 or not finite.
        case pointError(Double)

        public var description: String {
            switch self {
            case .countOutside(let field, let value, let maximum): "\(field) \(value) is outside 0...\(maximum)"
            case .numberOutside(let field, let value): "\(field) \(value) is outside 0...1"
            case .foundAboveSegments(let found, let segments): "found \(found) is above segments \(segments)"
            case .correctAboveReported(let correct, let reported): "correct \(correct) is above reported \(reported)"
            case .foundAboveCorrect(let found, let correct): "found \(found) is above correct \(correct) (each found segment is one correct trajectory's)"
            case .pointErrorCount(let count, let correct, let frames):
                "\(count) point errors for \(correct) correct trajectories of at most \(frames) frames (one error per point)"
            case .pointError(let value): "a point error of \(value) pixels (errors are distances: 0 or more, finite)"
            }
        }
    }

    /// Why a score read from a file is not one a sweep of a recording of `frames` frames could
    /// have written (`nil` when it could): counts within 0...``maximumCount``, `found ≤ segments`,
    /// `found ≤ correct ≤ reported`, one point error per point of the correct trajectories,
    /// errors finite and not negative, tracking ratios within 0...1. Refused before it is pooled.
    public func implausibility(frames: Int) -> Implausibility? {
        let counts = 0...Self.maximumCount
        if !counts.contains(events) { return .countOutside(field: "events", value: events, maximum: Self.maximumCount) }
        if let t = trajectories, let problem = t.implausibility(frames: frames) { return problem }
        if let k = tracking {
            for (field, value) in [("tracking frames", k.frames), ("losses", k.losses)] where !counts.contains(value) {
                return .countOutside(field: field, value: value, maximum: Self.maximumCount)
            }
            for (field, value) in [("successAUC", k.successAUC), ("precision20", k.precision20)] where !(0...1).contains(value) {
                return .numberOutside(field: field, value: value)
            }
        }
        return nil
    }
}

extension SweepScore.Trajectories {
    func implausibility(frames: Int) -> SweepScore.Implausibility? {
        let maximum = SweepScore.maximumCount
        for (field, value) in [("segments", segments), ("found", found), ("reported", reported), ("correct", correct)] where !(0...maximum).contains(value) {
            return .countOutside(field: field, value: value, maximum: maximum)
        }
        if found > segments { return .foundAboveSegments(found: found, segments: segments) }
        if correct > reported { return .correctAboveReported(correct: correct, reported: reported) }
        if found > correct { return .foundAboveCorrect(found: found, correct: correct) }
        let most = correct.multipliedReportingOverflow(by: max(0, frames))
        guard pointErrors.count >= correct, most.overflow || pointErrors.count <= most.partialValue else {
            return .pointErrorCount(count: pointErrors.count, correct: correct, frames: frames)
        }
        if let bad = pointErrors.first(where: { !($0.isFinite && $0 >= 0) }) { return .pointError(bad) }
        return nil
    }
}
