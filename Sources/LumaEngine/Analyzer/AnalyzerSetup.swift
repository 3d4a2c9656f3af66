import Foundation
import LumaAnalysis
/// One analyzer of a replay, fully resolved: every option has a value. This is what a log header
/// records per analyzer, and what `verify` and `regress` read back to re-run a replay exactly.
public struct AnalyzerSetup: Equatable, Sendable {
    /// The name this analyzer runs under: its events carry it, `--set NAME.KEY=…` addresses it.
    /// Usually the analyzer's own name; an instance name (`--analyzer short=trajectory`) lets one
    /// analyzer run more than once in a replay, each with its own options and events.
    public var name: String
    /// Which analyzer of the registry runs (``AnalyzerDescriptor/name``).
    public var analyzer: String
    public var version: String
    /// Minimum recording time in seconds between analyzed frames (Vision's `frameAnalysisSpacing`);
    /// 0 analyzes every frame.
    public var frameAnalysisSpacing: Double
    /// Part of the frame analyzed (Vision's `regionOfInterest`), normalized, lower-left origin.
    public var regionOfInterest: NormalizedRect
    /// The analyzer's own options, all of them, as JSON.
    public var configuration: JSONValue {
        didSet { if configuration != oldValue { validation = Validation() } }
    }
    /// What ``validate(with:)`` made of ``configuration``: kept so the analyzer is built from it
    /// without decoding or validating it again.
    private var validation = Validation()
    /// The files the analyzer's program was made of when the log was written (`ProgramFile`):
    /// filled in by the replay, in the header only when there are any.
    public var programFiles: [ProgramFile] = []
    /// The event kinds the analyzer declares, with their versions and shapes (`EventSchema`):
    /// filled in by the replay, in the header only when there are any.
    public var events: [EventSchema] = []

    public init(name: String, analyzer: String? = nil, version: String, frameAnalysisSpacing: Double,
                regionOfInterest: NormalizedRect, configuration: JSONValue) {
        self.name = name
        self.analyzer = analyzer ?? name
        self.version = version
        self.frameAnalysisSpacing = frameAnalysisSpacing
        self.regionOfInterest = regionOfInterest
        self.configuration = configuration
    }

    /// The most analyzer instances one replay runs: 64 unless the environment variable
    /// `LUMATRACE_MAX_ANALYZERS` raises (or lowers) it, up to 100,000. Each instance holds buffers
    /// of the frame's size, so a pipeline or a log header naming thousands would cost gigabytes
    /// before the first frame; a longer list is refused where it enters, before anything is made.
    public static let instanceLimit: Int = {
        guard let text = ProcessInfo.processInfo.environment[instanceLimitVariable], let n = Int(text), (1...100_000).contains(n) else {
            return 64
        }
        return n
    }()

    /// The environment variable that sets ``instanceLimit``.
    public static let instanceLimitVariable = "LUMATRACE_MAX_ANALYZERS"

    /// Refuses a list of `count` analyzer instances from the `analyzer` option longer than
    /// ``instanceLimit``.
    public static func checkInstanceCount(_ count: Int) throws(OptionError) {
        guard count > instanceLimit else { return }
        throw OptionError(option: "analyzer", .tooManyInstances(count: count, limit: instanceLimit, variable: instanceLimitVariable))
    }

    /// Refuses a list of `count` analyzer instances from `file` (a pipeline file, a log whose
    /// header lists them) longer than ``instanceLimit``, naming the file.
    public static func checkInstanceCount(_ count: Int, in file: String) throws(InstanceLimitError) {
        guard count > instanceLimit else { return }
        throw InstanceLimitError(file: file, count: count, limit: instanceLimit)
    }

    /// The names of the settings every analyzer has, handled by the engine.
    public static let engineOptions = ["frameAnalysisSpacing", "regionOfInterest"]

    /// A setup's ``ValidatedConfiguration``, a memo of its ``configuration``: not part of the
    /// setup's value, so a setup equals itself before and after it is validated.
    private struct Validation: Equatable, Sendable {
        var configuration: ValidatedConfiguration?
        static func == (_: Self, _: Self) -> Bool { true }
    }

    /// The typed, validated configuration for `descriptor`'s analyzer, when ``validate(with:)``
    /// made one of the current ``configuration``.
    func validated(for descriptor: AnalyzerDescriptor) -> ValidatedConfiguration? {
        validation.configuration.flatMap { $0.analyzer == descriptor.name ? $0 : nil }
    }

    /// Validates the setup with `descriptor` (``validate(with:)``) unless it is already, and
    /// returns its typed configuration.
    @discardableResult
    public mutating func validatedConfiguration(with descriptor: AnalyzerDescriptor) throws(OptionError) -> ValidatedConfiguration {
        if let done = validated(for: descriptor) { return done }
        try validate(with: descriptor)
        return validation.configuration!
    }

    /// The program the setup starts (``AnalyzerDescriptor/program(in:)``), or `nil`.
    public func program(with descriptor: AnalyzerDescriptor) -> String? {
        validated(for: descriptor).map(\.program) ?? descriptor.program(in: configuration)
    }

    /// Why the setup can log nothing (``AnalyzerDescriptor/idleReason(in:)``), or `nil`.
    public func idleReason(with descriptor: AnalyzerDescriptor) -> String? {
        validated(for: descriptor).map(\.idleReason) ?? descriptor.idleReason(in: configuration)
    }

    /// The header entry: `analyzer` appears only when the instance has a name of its own.
    public var json: JSONValue {
        var members: [JSONValue.Member] = [.init("name", .string(name))]
        if analyzer != name { members.append(.init("analyzer", .string(analyzer))) }
        members += [
            .init("version", .string(version)),
            .init("frameAnalysisSpacing", .double(frameAnalysisSpacing)),
            .init("regionOfInterest", .array(regionOfInterest.array.map { .double($0) })),
            .init("configuration", configuration),
        ]
        if !events.isEmpty { members.append(.init("events", .array(events.map(\.json)))) }
        if !programFiles.isEmpty { members.append(.init("programFiles", .array(programFiles.map(\.json)))) }
        return .object(members)
    }

    /// Checks an instance name: letters, digits, `_` and `-`, at most 64, not `engine` (the
    /// engine's own events) — it is a key of `--set NAME.KEY` and of every event.
    public static func checkInstanceName(_ name: String, option: String) throws(OptionError) {
        let allowed = name.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x2D
        }
        guard !name.isEmpty, name.utf8.count <= 64, allowed, name != "engine" else {
            throw OptionError(option: option, .notAnInstanceName(name))
        }
    }

    /// The refusal of an instance `name` that a run already has (running `analyzer`): each instance
    /// needs its own name (`INSTANCE=ANALYZER`), as its events and options are keyed by it.
    public static func givenTwice(_ name: String, analyzer: String) -> OptionError {
        OptionError(option: "analyzer", .givenTwice(name: name, analyzer: analyzer))
    }

    /// Reads `--analyzer` text: `NAME` runs analyzer NAME under its own name, `INSTANCE=NAME`
    /// runs it as INSTANCE. Returns (instance, analyzer).
    public static func parseChoice(_ text: String) throws(OptionError) -> (name: String, analyzer: String) {
        guard let eq = text.firstIndex(of: "=") else { return (text, text) }
        let (instance, analyzer) = (String(text[..<eq]), String(text[text.index(after: eq)...]))
        try checkInstanceName(instance, option: "analyzer \(text)")
        return (instance, analyzer)
    }

    /// Resolves `overrides` (option key → value text, as given to `--set`) over the analyzer's
    /// defaults, reading each value as its option declares (``AnalyzerDescriptor/value(ofSetting:text:)``)
    /// and validating the result.
    /// The setup runs under `instance` when given (see ``name``).
    public static func resolve(_ descriptor: AnalyzerDescriptor, instance: String? = nil, overrides: [(key: String, value: String)],
                               spacing: Double = 0, roi: NormalizedRect = .full) throws(OptionError) -> AnalyzerSetup {
        var setup = AnalyzerSetup(name: instance ?? descriptor.name, analyzer: descriptor.name, version: descriptor.version,
                                  frameAnalysisSpacing: spacing, regionOfInterest: roi, configuration: descriptor.defaultConfiguration)
        try setup.apply(overrides, with: descriptor)
        return setup
    }

    /// Applies `--set` style overrides on top of this setup's current values, then validates
    /// (unless there are none and the setup is validated already).
    public mutating func apply(_ overrides: [(key: String, value: String)], with descriptor: AnalyzerDescriptor) throws(OptionError) {
        if overrides.isEmpty, validated(for: descriptor) != nil { return }
        for (key, text) in overrides {
            let option = "\(name).\(key)"
            switch key {
            case "frameAnalysisSpacing":
                guard let s = Double(text), s.isFinite, s >= 0, s <= 3600 else {
                    throw OptionError(option: option, .notA(.seconds(0...3600), text: text))
                }
                frameAnalysisSpacing = s
            case "regionOfInterest":
                guard let r = NormalizedRect(parsing: text.trimmingCharacters(in: "[").trimmingCharacters(in: "]")) else {
                    throw OptionError(option: option, .notA(.region, text: text))
                }
                regionOfInterest = r
            default:
                let value: JSONValue?
                do throws(OptionError) { value = try descriptor.value(ofSetting: key, text: text) } catch {
                    throw OptionError(option: option, error.problem)
                }
                guard let value else {
                    let known = descriptor.options.map(\.key) + AnalyzerSetup.engineOptions
                    throw OptionError(option: option, .unknownOption(analyzer: descriptor.name, known: known))
                }
                var members = configuration.objectValue ?? []
                if let i = members.firstIndex(where: { $0.key == key }) { members[i].value = value } else { members.append(.init(key, value)) }
                configuration = .object(members)
            }
        }
        try validate(with: descriptor)
    }

    /// Checks engine settings and the analyzer's own validation; returns the canonical configuration.
    public mutating func validate(with descriptor: AnalyzerDescriptor) throws(OptionError) {
        if let problem = regionOfInterest.problem {
            throw OptionError(option: "\(name).regionOfInterest", .region(regionOfInterest.array, problem))
        }
        guard frameAnalysisSpacing.isFinite, (0...3600).contains(frameAnalysisSpacing) else {
            throw OptionError(option: "\(name).frameAnalysisSpacing", .outOfRange(value: "\(frameAnalysisSpacing)", allowed: "0...3600 seconds"))
        }
        // Missing keys take their defaults, so a pipeline file may list only what it changes.
        var merged = descriptor.defaultConfiguration.objectValue ?? []
        for m in configuration.objectValue ?? [] {
            guard let i = merged.firstIndex(where: { $0.key == m.key }) else {
                throw OptionError(option: "\(name).\(m.key)", .unknownOption(analyzer: name, known: merged.map(\.key)))
            }
            merged[i].value = m.value
        }
        do {
            let validated = try descriptor.decodeAndValidate(.object(merged))
            configuration = validated.json
            validation.configuration = validated
        } catch let e as OptionError {
            throw OptionError(option: e.option.hasPrefix("\(name).") ? e.option : "\(name).\(e.option)", e.problem)
        } catch let error as DecodingError {
            let problem = DecodingProblem(error)
            throw OptionError(option: problem.path.isEmpty ? name : "\(name).\(problem.path)", .notDecodable(problem.reason))
        } catch {
            throw OptionError(option: name, .configurationDoesNotFit("\(error)"))
        }
    }

    /// Reads a setup from its JSON form (a log header entry or a pipeline file entry): `name`, and
    /// `analyzer` when the instance runs under a name of its own.
    ///
    /// With `validating` false the entry is only read, not checked against the analyzer: for an
    /// entry that `--set` values complete, validated once they are applied.
    public static func parse(_ json: JSONValue, registry: AnalyzerRegistry, source: String,
                             validating: Bool = true) throws(OptionError) -> AnalyzerSetup {
        guard let name = json["name"]?.stringValue else {
            throw OptionError(option: source, .entryWithoutName)
        }
        var analyzer = name
        if let a = json["analyzer"] {
            guard let text = a.stringValue else { throw OptionError(option: "\(name).analyzer", .entryMember(.analyzerName)) }
            try checkInstanceName(name, option: "\(source): analyzer entry \"name\"")
            analyzer = text
        }
        let descriptor = try registry.descriptor(named: analyzer)
        var roi = NormalizedRect.full
        if let r = json["regionOfInterest"] {
            guard let a = r.arrayValue?.compactMap(\.doubleValue), a.count == 4 else {
                throw OptionError(option: "\(name).regionOfInterest", .entryMember(.region))
            }
            roi = NormalizedRect(x: a[0], y: a[1], width: a[2], height: a[3])
        }
        var spacing = 0.0
        if let s = json["frameAnalysisSpacing"] {
            guard let v = s.doubleValue else { throw OptionError(option: "\(name).frameAnalysisSpacing", .entryMember(.seconds)) }
            spacing = v
        }
        let configuration = json["configuration"] ?? .object([])
        guard case .object = configuration else { throw OptionError(option: "\(name).configuration", .entryMember(.object)) }
        var setup = AnalyzerSetup(name: name, analyzer: analyzer, version: descriptor.version, frameAnalysisSpacing: spacing,
                                  regionOfInterest: roi, configuration: configuration)
        if validating { try setup.validate(with: descriptor) }
        return setup
    }
}
