import LumaAnalysis
import Synchronization

/// How often the ``LevelProbe``'s configuration is decoded from JSON and validated.
public enum ConfigurationCounts {
    static let decodes = Atomic<Int>(0)
    static let validations = Atomic<Int>(0)
    /// Held while `body` of ``counting(_:)`` runs, so tests in other suites count apart.
    private static let session = Mutex(())

    /// Runs `body`, whose decodes and validations are not to be counted, while no other test
    /// counts (the counters are shared by every test).
    public static func uncounted<T>(_ body: () throws -> T) throws -> T {
        try session.withLock { _ in try body() }
    }

    /// The decodes and validations `body` causes.
    public static func counting(_ body: () throws -> Void) throws -> (decodes: Int, validations: Int) {
        try session.withLock { _ in
            decodes.store(0, ordering: .sequentiallyConsistent)
            validations.store(0, ordering: .sequentiallyConsistent)
            try body()
            return (decodes.load(ordering: .sequentiallyConsistent), validations.load(ordering: .sequentiallyConsistent))
        }
    }
}

/// A level whose every decoding from JSON is counted (`--set` reads its text without decoding).
public struct CountedLevel: OptionValue, Comparable {
    public var value: Int
    public init(_ value: Int) { self.value = value }
    public init(optionText text: String) throws(OptionError) { self.value = try Int(optionText: text) }
    public init(from decoder: any Decoder) throws {
        ConfigurationCounts.decodes.add(1, ordering: .sequentiallyConsistent)
        value = try decoder.singleValueContainer().decode(Int.self)
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(value)
    }
    public var optionText: String { String(value) }
    public static func < (a: Self, b: Self) -> Bool { a.value < b.value }
}

/// An analyzer that logs its level once, whose configuration counts its validations.
public struct LevelProbe: Analyzer {
    public struct Configuration: AnalyzerConfiguration {
        public var level = CountedLevel(3)
        public init() {}
        public static let options: [AnalyzerOption<Self>] = [AnalyzerOption("level", \.level, in: CountedLevel(1)...CountedLevel(9), help: "a level")]
        public func validate() throws(OptionError) {
            ConfigurationCounts.validations.add(1, ordering: .sequentiallyConsistent)
            try validateOptions()
        }
    }
    public struct Level: EventPayload {
        public static let kind = "level"
        public static let version = 1
        public var level: Int
    }
    public static let name = "level"
    public static let version = "1"
    public static let summary = "logs its level at frame 0"
    public static let eventTypes: [any EventPayload.Type] = [Level.self]
    let level: Int
    public init(configuration: Configuration, context: AnalyzerContext) throws { level = configuration.level.value }
    public mutating func analyze(_ frame: Frame, into events: inout EventSink) throws {
        if frame.index == 0 { try events.emit(Level(level: level)) }
    }
}
