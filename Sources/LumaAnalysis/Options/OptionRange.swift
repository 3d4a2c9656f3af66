/// The values a number option allows: a closed range (`1...254`, written as one), an interval open
/// at one or both ends (`.above(0, atMost: 1)`), a range whose lower bound is another option
/// (`.atLeast(\.minimumAspectRatio, atMost: 1)`), or one value besides a range (`.either(0, or: 16...16384)`).
///
/// The range is printed as declared (`1...254`, `(0, 1]`, `minimumAspectRatio...1`,
/// `0 or 16...16384`) both in `lumatrace analyzers` and in refusals, which also resolve a bound that
/// is another option: `0.5 is outside the allowed range minimumAspectRatio...1 (0.8...1)`.
public struct OptionRange<Configuration: AnalyzerConfiguration, Value: OptionValue & Comparable>: Sendable {
    enum Bound: Sendable {
        case included(Value)
        case excluded(Value)
        /// Included, and the value of another option of the same configuration.
        case option(WritableKeyPath<Configuration, Value> & Sendable)
    }

    let lower: Bound
    let upper: Bound
    /// A value allowed outside the bounds (`0` in `0 or 16...16384`: "never").
    let exception: Value?

    init(lower: Bound, upper: Bound, exception: Value? = nil) {
        self.lower = lower
        self.upper = upper
        self.exception = exception
    }

    /// From `range.lowerBound` to `range.upperBound`, both allowed.
    public init(_ range: ClosedRange<Value>) {
        self.init(lower: .included(range.lowerBound), upper: .included(range.upperBound))
    }

    /// More than `lower`, at most `upper`: `(0, 1]`.
    public static func above(_ lower: Value, atMost upper: Value) -> Self {
        Self(lower: .excluded(lower), upper: .included(upper))
    }

    /// More than `lower`, less than `upper`: `(0, 1)`.
    public static func above(_ lower: Value, below upper: Value) -> Self {
        Self(lower: .excluded(lower), upper: .excluded(upper))
    }

    /// At least the value of another option of the configuration, at most `upper`:
    /// `minimumAspectRatio...1`. Declare that option first: options are checked in order.
    public static func atLeast(_ option: WritableKeyPath<Configuration, Value> & Sendable, atMost upper: Value) -> Self {
        Self(lower: .option(option), upper: .included(upper))
    }

    /// `value`, or anything in `range`: `0 or 16...16384`.
    public static func either(_ value: Value, or range: ClosedRange<Value>) -> Self {
        Self(lower: .included(range.lowerBound), upper: .included(range.upperBound), exception: value)
    }

    /// Whether `configuration` allows `value`.
    func contains(_ value: Value, in configuration: Configuration) -> Bool {
        if value == exception { return true }
        switch lower {
        case .included(let bound): guard value >= bound else { return false }
        case .excluded(let bound): guard value > bound else { return false }
        case .option(let other): guard value >= configuration[keyPath: other] else { return false }
        }
        switch upper {
        case .included(let bound): return value <= bound
        case .excluded(let bound): return value < bound
        case .option(let other): return value <= configuration[keyPath: other]
        }
    }

    /// The range as declared: `1...254`, `(0, 1]`, `minimumAspectRatio...1`, `0 or 16...16384`.
    var text: String { text { Self.key(of: $0) } }

    /// The range as declared, with the values its option bounds have in `configuration`:
    /// `minimumAspectRatio...1 (0.8...1)`.
    func text(in configuration: Configuration) -> String {
        guard lower.isOption || upper.isOption else { return text }
        return text + " (" + text { configuration[keyPath: $0].optionText } + ")"
    }

    /// The range, writing an option bound as `name` says.
    private func text(naming name: (WritableKeyPath<Configuration, Value> & Sendable) -> String) -> String {
        func show(_ bound: Bound) -> String {
            switch bound {
            case .included(let value), .excluded(let value): value.optionText
            case .option(let other): name(other)
            }
        }
        let interval = switch (lower.isExcluded, upper.isExcluded) {
        case (false, false): "\(show(lower))...\(show(upper))"
        case (true, false): "(\(show(lower)), \(show(upper))]"
        case (false, true): "[\(show(lower)), \(show(upper)))"
        case (true, true): "(\(show(lower)), \(show(upper)))"
        }
        return exception.map { "\($0.optionText) or \(interval)" } ?? interval
    }

    /// The key of the option declared for `property`.
    private static func key(of property: WritableKeyPath<Configuration, Value> & Sendable) -> String {
        Configuration.options.first { $0.property as AnyKeyPath == property as AnyKeyPath }?.key ?? "\(property)"
    }
}

extension OptionRange.Bound {
    var isExcluded: Bool { if case .excluded = self { true } else { false } }
    var isOption: Bool { if case .option = self { true } else { false } }
}
