import LumaAnalysis
import LumaBase
import LumaEngine

/// One swept option and the values it takes, as text for `--set NAME.KEY=VALUE`, in the order given.
public struct SweepAxis: Sendable, Equatable, Codable {
    /// The option's key (`trajectoryLength`).
    public var key: String
    /// Its values, each as `--set` reads it.
    public var values: [String]

    public init(key: String, values: [String]) {
        self.key = key
        self.values = values
    }
}

/// The settings a sweep tries: the product of its axes (`--grid`), every other option fixed
/// (`--set`) or at its default.
///
/// Order: the first `--grid` changes slowest, the last fastest, as nested loops written in the
/// order given; settings are numbered in that order (`s01`, `s02`, …), so a setting's id depends
/// only on the grid, never on a run.
public struct SweepGrid: Sendable, Equatable {
    /// The instance name the options belong to (`trajectory`, or `INSTANCE` of `--analyzer INSTANCE=trajectory`).
    public var name: String
    /// The analyzer the sweep runs.
    public var analyzer: String
    /// Options fixed for every setting (`--set`), in the order given.
    public var fixed: [(key: String, value: String)]
    public var axes: [SweepAxis]
    /// `--random N --seed S`: the settings are N samples drawn from the axes, not their product
    /// (a range axis written `FROM:TO` then holds that one text as its value).
    public private(set) var sampling: SweepSampling?
    /// The sampled settings' values, in axis order (empty for a product).
    var samples: [[String]] = []

    /// The most settings one sweep runs (16 passes of 64 instances per recording): a larger grid is
    /// refused before anything runs, with how to split it.
    public static let maximumSettings = 1024

    public static func == (a: SweepGrid, b: SweepGrid) -> Bool {
        a.name == b.name && a.analyzer == b.analyzer && a.axes == b.axes && a.sampling == b.sampling && a.samples == b.samples && a.fixed.elementsEqual(b.fixed) { $0 == $1 }
    }

    /// A grid of `name` (running `analyzer`) from `--grid` texts (`NAME.KEY=V1,V2` or `NAME.KEY=FROM:TO:COUNT`)
    /// and fixed `--set` values. Each value is read as its option's type and checked by the
    /// analyzer's own rules, alone and in every setting, so an impossible value fails here, naming
    /// the option. With `random`, N settings are drawn instead (see ``SweepSampling``).
    public init(name: String, analyzer descriptor: AnalyzerDescriptor, grid texts: [String],
                fixed: [(key: String, value: String)] = [], random: SweepSampling? = nil) throws {
        self.name = name
        analyzer = descriptor.name
        self.fixed = fixed
        sampling = random
        axes = []
        for text in texts {
            guard let eq = text.firstIndex(of: "="), let dot = text[..<eq].firstIndex(of: ".") else { throw SweepError.notAGrid(text) }
            let (owner, key, values) = (String(text[..<dot]), String(text[text.index(after: dot)..<eq]), String(text[text.index(after: eq)...]))
            guard owner == name else { throw SweepError.otherAnalyzer(grid: text, analyzer: name) }
            guard !key.isEmpty else { throw SweepError.notAGrid(text) }
            guard !axes.contains(where: { $0.key == key }), !fixed.contains(where: { $0.key == key }) else {
                throw SweepError.givenTwice(option: "\(name).\(key)")
            }
            let isInteger = if case .int = descriptor.defaultConfiguration[key] { true } else { false }
            if random != nil, !SweepValueList.hasGroups(values), values.split(separator: ":", omittingEmptySubsequences: false).count == 2 {
                _ = try SweepSampling.Draw(values, option: "\(name).\(key)", integer: isInteger)
                axes.append(SweepAxis(key: key, values: [values]))
                continue
            }
            let axis = SweepAxis(key: key, values: try Self.values(values, option: "\(name).\(key)", integer: isInteger) { whole in
                (try? AnalyzerSetup.resolve(descriptor, instance: name, overrides: fixed + [(key, whole)])) != nil
            })
            try Self.refuseSameValues(axis, option: "\(name).\(key)", text: values) { value throws(OptionError) in
                try AnalyzerSetup.resolve(descriptor, instance: name, overrides: fixed + [(key, value)])
            }
            axes.append(axis)
        }
        if let random {
            samples = try random.draw(self, descriptor: descriptor)
            return
        }
        let count = settingCount
        if count > Self.maximumSettings {
            let largest = axes.max { $0.values.count < $1.values.count }.map { "\(name).\($0.key)" } ?? name
            throw SweepError.tooManySettings(count: count, limit: Self.maximumSettings, largest: largest)
        }
        // Values fine alone may not go together (a minimum above a maximum): every setting is checked too.
        _ = try setups(descriptor)
    }

    /// How many settings the grid holds (without overflow: a product past the limit stops there).
    public var settingCount: Int {
        if sampling != nil { return samples.count }
        return axes.reduce(1) { product, axis in min(product * axis.values.count, Self.maximumSettings + 1) }
    }

    /// Every setting, in grid order.
    public var settings: [SweepSetting] {
        let count = settingCount
        let digits = max(2, String(count).count)
        return (0..<count).map { index in
            let number = String(index + 1)
            let id = "s" + String(repeating: "0", count: digits - number.count) + number
            if sampling != nil {
                return SweepSetting(id: id, values: zip(axes, samples[index]).map { .init(key: $0.key, value: $1) })
            }
            var rest = index
            var values: [SweepSetting.Value] = []
            for axis in axes.reversed() {
                values.insert(.init(key: axis.key, value: axis.values[rest % axis.values.count]), at: 0)
                rest /= axis.values.count
            }
            return SweepSetting(id: id, values: values)
        }
    }

    /// The setups of every setting, each running as an instance named by the setting's id, checked
    /// by the analyzer's rules (an error names the option as `NAME.KEY`, not the id).
    public func setups(registry: AnalyzerRegistry) throws -> [AnalyzerSetup] {
        try setups(registry.descriptor(named: analyzer))
    }

    func setups(_ descriptor: AnalyzerDescriptor) throws(OptionError) -> [AnalyzerSetup] {
        try settings.map { (setting: SweepSetting) throws(OptionError) -> AnalyzerSetup in
            var setup = try AnalyzerSetup.resolve(descriptor, instance: name, overrides: fixed + setting.values.map { ($0.key, $0.value) })
            setup.name = setting.id
            return setup
        }
    }

    /// The `replay` flags that run `setting` alone, as the analyzer's own name.
    public func replayFlags(_ setting: SweepSetting) -> [String] {
        let choice = name == analyzer ? analyzer : "\(name)=\(analyzer)"
        return ["--analyzer", choice] + (fixed + setting.values.map { ($0.key, $0.value) }).flatMap { ["--set", "\(name).\($0.key)=\($0.value)"] }
    }

    /// Checks each value of `axis` by the analyzer's rules (`resolve`) and refuses two spellings
    /// of one value (`8` and `08`, `0.5` and `5e-1`, `0` and `-0`): the same setup, as its log
    /// header would print it.
    static func refuseSameValues(_ axis: SweepAxis, option: String, text: String,
                                 resolve: (String) throws(OptionError) -> AnalyzerSetup) throws {
        var seen: [String: String] = [:]
        for value in axis.values {
            let setup = try resolve(value)
            let printed = setup.json.serialized
            if let first = seen[printed] { throw SweepError.sameValue(option: option, text: text, value: value, sameAs: first) }
            seen[printed] = value
        }
    }

    /// The values `text` gives: a list `V1,V2,…` (``SweepValueList``: a value holding commas in
    /// `[ ]`, `{ }` or `" "`), or a range `FROM:TO:COUNT` of COUNT evenly spaced numbers from FROM
    /// to TO inclusive (whole numbers for an `integer` option; others in the log's fixed decimals,
    /// trailing zeros left out). A list of several values none of them grouped, whose whole text
    /// `isOneValue` accepts as one value, is refused as ambiguous: its commas may be the value's own.
    static func values(_ text: String, option: String, integer: Bool, isOneValue: (String) -> Bool = { _ in false }) throws(SweepError) -> [String] {
        let values: [String]
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 3 && !SweepValueList.hasGroups(text) {
            guard let from = Double(parts[0]), let to = Double(parts[1]), from.isFinite, to.isFinite else {
                throw .badValues(option: option, text: text, .rangeNotNumbers(counted: true))
            }
            guard let count = Int(parts[2]), (2...maximumSettings).contains(count) else {
                throw .badValues(option: option, text: text, .countOutside(allowed: 2...maximumSettings))
            }
            values = try (0..<count).map { (i: Int) throws(SweepError) -> String in
                let value = from + (to - from) * Double(i) / Double(count - 1)
                if integer {
                    guard value.rounded() == value, abs(value) < 9e15 else {
                        throw .notWhole(option: option, text: text, value: FixedDecimal.text(value, decimals: JSONValue.decimals, below: 9e18, trimmingZeros: true) ?? "\(value)")
                    }
                    return String(Int64(value))
                }
                guard let printed = FixedDecimal.text(value, decimals: JSONValue.decimals, below: 9e18, trimmingZeros: true) else {
                    throw .badValues(option: option, text: text, .valueTooLarge(value))
                }
                return printed
            }
        } else {
            if parts.count == 2, !SweepValueList.hasGroups(text), Double(parts[0]) != nil, Double(parts[1]) != nil {
                throw .badValues(option: option, text: text, .rangeWithoutCount)
            }
            let items: [SweepValueList.Item]
            switch SweepValueList.items(text) {
            case .success(let read): items = read
            case .failure(let refusal): throw .badValues(option: option, text: text, .malformedList(refusal))
            }
            values = items.map(\.value)
            if values.contains(where: \.isEmpty) {
                throw .badValues(option: option, text: text, .emptyValue)
            }
            if items.count > 1, !items.contains(where: \.grouped), isOneValue(text) { throw .ambiguousCommas(option: option, text: text) }
        }
        var seen = Set<String>()
        for value in values where !seen.insert(value).inserted { throw .repeated(option: option, text: text, value: value) }
        return values
    }
}

/// One setting of a sweep: its id (`s03`, from its place in the grid) and the value of each swept option.
public struct SweepSetting: Sendable, Equatable, Codable {
    /// One swept option's value.
    public struct Value: Sendable, Equatable, Codable {
        public var key: String
        public var value: String
    }

    /// `s` and its number in grid order, zero-padded to the grid's size: the instance name of its replays.
    public var id: String
    public var values: [Value]
}
