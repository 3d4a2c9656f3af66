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

    /// Whether a score read from a file is one a sweep could have written: counts within
    /// 0...``maximumCount``, numbers finite. One that is not is refused before it is pooled.
    var isPlausible: Bool {
        let counts = 0...Self.maximumCount
        guard counts.contains(events) else { return false }
        if let t = trajectories {
            guard [t.segments, t.found, t.reported, t.correct, t.pointErrors.count].allSatisfy(counts.contains),
                  t.pointErrors.allSatisfy(\.isFinite) else { return false }
        }
        if let k = tracking {
            guard counts.contains(k.frames), counts.contains(k.losses), k.successAUC.isFinite, k.precision20.isFinite else { return false }
        }
        return true
    }
}
