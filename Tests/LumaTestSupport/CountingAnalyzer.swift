import LumaAnalysis
import Synchronization

/// How often the ``LevelProbe``'s configuration is decoded from JSON and validated within one
/// ``counting(_:)`` call.
///
/// Each call owns its counters: they are reached through a task-local value, so decodes and
/// validations that other tests cause at the same time (on other tasks and threads) are never
/// counted here. Work the measured code hands to a thread of its own is not counted either; the
/// option path decodes and validates on the caller's thread, which is what the counts check.
public enum ConfigurationCounts {
    /// One run's counters.
    final class Counters: Sendable {
        let decodes = Atomic<Int>(0)
        let validations = Atomic<Int>(0)
    }

    @TaskLocal static var current: Counters?

    static func countDecode() { current?.decodes.add(1, ordering: .relaxed) }
    static func countValidation() { current?.validations.add(1, ordering: .relaxed) }

    /// The decodes and validations `body` causes on the calling task.
    public static func counting(_ body: () throws -> Void) throws -> (decodes: Int, validations: Int) {
        let counters = Counters()
        try $current.withValue(counters) { try body() }
        return (counters.decodes.load(ordering: .relaxed), counters.validations.load(ordering: .relaxed))
    }
}
/// A level whose every decoding from JSON is counted (`--set` reads its text without decoding).
public struct CountedLevel: OptionValue, Comparable {
    public var value: Int
    public init(_ value: Int) { self.value = value }
    public init(optionText text: String) throws(OptionError) { self.value = try Int(optionText: text) }
    public init(from decoder: any Decoder) throws {
        ConfigurationCounts.countDecode()
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
            ConfigurationCounts.countValidation()
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
