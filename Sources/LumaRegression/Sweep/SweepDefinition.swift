import LumaAnalysis
import LumaBase
import LumaEngine
import LumaFormat
import LumaTruth

/// What a sweep is, as the files it leaves on disk record it (a resumed sweep's stored scores, a
/// shard's part): the analyzer, the grid and every setting it gives, the instances per replay and
/// the engine version. Two runs with the same definition score the same settings the same way, so
/// their scores may be joined; any difference refuses the join, naming it.
public struct SweepDefinition: Sendable, Equatable, Codable {
    public var engine: String
    /// The instance name the options belong to, and the analyzer it runs.
    public var instance: String
    public var analyzer: String
    /// `--set` values fixed for every setting, in the order given.
    public var fixed: [SweepSetting.Value]
    public var axes: [SweepAxis]
    public var random: SweepSampling?
    /// Every setting, in grid order (with `random`, as drawn).
    public var settings: [SweepSetting]
    /// The most instances one replay runs (the instance limit when the sweep ran): the settings in
    /// passes of this many.
    public var passSize: Int

    public init(_ grid: SweepGrid, passSize: Int = AnalyzerSetup.instanceLimit) {
        engine = LumatraceVersion.engine
        instance = grid.name
        analyzer = grid.analyzer
        fixed = grid.fixed.map { SweepSetting.Value(key: $0.key, value: $0.value) }
        axes = grid.axes
        random = grid.sampling
        settings = grid.settings
        self.passSize = passSize
    }

    /// The settings' indices in passes of at most ``passSize``, in grid order.
    public var passes: [Range<Int>] {
        stride(from: 0, to: settings.count, by: passSize).map { $0..<min($0 + passSize, settings.count) }
    }

    /// The first field in which `self` differs from `other`, in words with both values; `nil` when they are equal.
    public func difference(from other: SweepDefinition) -> (field: String, mine: String, theirs: String)? {
        func text(_ values: [SweepSetting.Value]) -> String { values.map { "\($0.key)=\($0.value)" }.joined(separator: " ") }
        func text(_ axes: [SweepAxis]) -> String { axes.map { "\($0.key)=" + SweepValueList.text($0.values) }.joined(separator: " ") }
        func text(_ sampling: SweepSampling?) -> String { sampling.map { "--random \($0.count) --seed \($0.seed)" } ?? "the whole grid" }
        if engine != other.engine { return ("lumatrace version", engine, other.engine) }
        if instance != other.instance || analyzer != other.analyzer { return ("analyzer", "\(instance)=\(analyzer)", "\(other.instance)=\(other.analyzer)") }
        if axes != other.axes { return ("grid", text(axes), text(other.axes)) }
        if fixed != other.fixed { return ("fixed options", text(fixed), text(other.fixed)) }
        if random != other.random { return ("sampling", text(random), text(other.random)) }
        if settings.count != other.settings.count { return ("setting count", "\(settings.count)", "\(other.settings.count)") }
        if let i = settings.indices.first(where: { settings[$0] != other.settings[$0] }) {
            return ("setting \(i + 1)", settings[i].id + " " + text(settings[i].values), other.settings[i].id + " " + text(other.settings[i].values))
        }
        if passSize != other.passSize { return ("instances per replay", "\(passSize)", "\(other.passSize)") }
        return nil
    }
}

extension SweepGrid {
    /// The grid a definition records, built again as the sweep built it (every value checked by
    /// the analyzer's rules); throws when the definition is not one a sweep of this lumatrace gives.
    public init(_ definition: SweepDefinition, analyzer descriptor: AnalyzerDescriptor) throws {
        let texts = definition.axes.map { "\(definition.instance).\($0.key)=" + SweepValueList.text($0.values) }
        try self.init(name: definition.instance, analyzer: descriptor, grid: texts, fixed: definition.fixed.map { ($0.key, $0.value) },
                      random: definition.random)
        var again = SweepDefinition(self, passSize: definition.passSize)
        again.engine = definition.engine
        guard again.settings == definition.settings else {
            throw SweepFileError.Impossibility.settingsNotOfGrid
        }
    }
}

/// Which recording and truth a sweep's scores are of: the recording's file name, its frames digest
/// (SHA-256 of every frame's time and pixels, as its index records it) and frame count, and the
/// SHA-256 of its truth file.
public struct SweepRecordingIdentity: Sendable, Equatable, Codable {
    public var name: String
    public var frames: Int
    public var framesSHA256: String
    public var truthSHA256: String

    public init(name: String, frames: Int, framesSHA256: String, truthSHA256: String) {
        (self.name, self.frames, self.framesSHA256, self.truthSHA256) = (name, frames, framesSHA256, truthSHA256)
    }

    /// The identity of a corpus entry: its recording's frames digest (from its index; decoded when
    /// it has none) and its truth file's digest.
    public init(_ entry: SweepCorpus.Entry) throws {
        let reader = try RecordingReader(path: entry.recordingPath)
        // Read as `score --truth` reads it: a plain file under the truth's size limit, a FIFO or a
        // device refused at once (never waited on, never read without end).
        let truth: [UInt8]
        do throws(SystemFile.WholeFileProblem) {
            truth = try SystemFile.readWhole(entry.truthPath, maximumBytes: GroundTruth.maximumFileBytes)
        } catch {
            switch error {
            case .notAFile(let kind): throw TruthError(path: entry.truthPath, .notAFile(found: kind.inWords))
            case .tooLarge(let bytes, let limit): throw TruthError(path: entry.truthPath, .tooLarge(bytes: bytes, limit: limit))
            case .unreadable(let failure): throw TruthError(path: entry.truthPath, .unreadable(failure))
            }
        }
        self.init(name: entry.name, frames: reader.frameCount, framesSHA256: try reader.framesDigest().hexString,
                  truthSHA256: SHA256Hasher.hash(truth).hexString)
    }

    /// A plain `NAME.luma` (no folder, not hidden): what a file on disk may name as a recording.
    var isPlainName: Bool {
        name.hasSuffix(".luma") && name.count > ".luma".count && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\0")
    }
}
