import LumaAnalysis
import LumaBase
import LumaEngine

/// `--random N --seed S`: a sweep of N settings drawn at random instead of the grid's product.
///
/// Each setting draws one value per axis, in the order the `--grid` options are given: a list's
/// value is one of the list (each equally likely); a range written `FROM:TO` gives a number
/// uniformly in [FROM, TO] (a whole number for an integer option, else printed in the log's fixed
/// decimals, trailing zeros left out). A range with a count (`FROM:TO:COUNT`) is its list of COUNT
/// values. The draws come from ``SeededRandom`` (SplitMix64, written out in LumaSynth, stream
/// `"sweep"` of the seed), never the system generator, so a seed gives the same settings on every
/// machine and every version. A setting drawn twice, or refused by the analyzer's own rules (values
/// that do not go together), is drawn again; settings are numbered in the order they are kept.
public struct SweepSampling: Sendable, Equatable, Codable {
    /// How many settings (N of `--random N`).
    public var count: Int
    /// The seed (`--seed S`).
    public var seed: UInt64

    public init(count: Int, seed: UInt64) {
        self.count = count
        self.seed = seed
    }

    /// Draws tried per setting wanted (plus a fixed allowance) before the sampling gives up.
    static let drawsPerSetting = 64, extraDraws = 1024

    /// How one axis's value is drawn.
    enum Draw: Equatable {
        case list([String])
        case range(from: Double, to: Double, integer: Bool)

        /// A range `FROM:TO` of option `option` (whole numbers for an `integer` one).
        init(_ text: String, option: String, integer: Bool) throws(SweepError) {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let from = Double(parts[0]), let to = Double(parts[1]), from.isFinite, to.isFinite else {
                throw .badValues(option: option, text: text, .rangeNotNumbers(counted: false))
            }
            guard from < to else { throw .badValues(option: option, text: text, .rangeReversed) }
            guard abs(from) < 9e15, abs(to) < 9e15 else { throw .badValues(option: option, text: text, .rangeTooLarge) }
            if integer, from.rounded() != from || to.rounded() != to {
                throw .badValues(option: option, text: text, .rangeNotWhole)
            }
            self = .range(from: from, to: to, integer: integer)
        }

        /// How many distinct values it gives, `nil` for a range of decimals (as good as unbounded).
        var size: Int? {
            switch self {
            case .list(let values): values.count
            case .range(let from, let to, true): Int(to - from) + 1
            case .range(_, _, false): nil
            }
        }

        func value(_ random: inout SeededRandom) -> String {
            switch self {
            case .list(let values):
                return values[random.int(in: 0...(values.count - 1))]
            case .range(let from, let to, true):
                return String(random.int(in: Int(from)...Int(to)))
            case .range(let from, let to, false):
                let value = from + (to - from) * random.unit()
                return FixedDecimal.text(value, decimals: JSONValue.decimals, below: 9e18, trimmingZeros: true) ?? String(value)
            }
        }
    }

    /// The settings' values (in axis order) for `grid`, each checked by `descriptor`'s rules with the grid's fixed options.
    func draw(_ grid: SweepGrid, descriptor: AnalyzerDescriptor) throws -> [[String]] {
        guard (1...SweepGrid.maximumSettings).contains(count) else {
            throw SweepError.badSampleCount(count: count, limit: SweepGrid.maximumSettings)
        }
        let draws = try grid.axes.map { axis throws(SweepError) -> Draw in
            guard axis.values.count == 1, axis.values[0].split(separator: ":", omittingEmptySubsequences: false).count == 2 else {
                return .list(axis.values)
            }
            let isInteger = if case .int = descriptor.defaultConfiguration[axis.key] { true } else { false }
            return try Draw(axis.values[0], option: "\(grid.name).\(axis.key)", integer: isInteger)
        }
        var space: Int? = 1
        for size in draws.map(\.size) {
            guard let known = space, let size else { space = nil; break }
            space = known.multipliedReportingOverflow(by: size).overflow ? nil : known * size
        }
        if let space, space < count { throw SweepError.sampleSpaceTooSmall(count: count, space: space) }

        var random = SeededRandom(seed: seed, stream: "sweep")
        var samples: [[String]] = []
        var seen = Set<[String]>()
        var refusal: OptionError?
        let limit = count * Self.drawsPerSetting + Self.extraDraws
        var tried = 0
        while samples.count < count {
            guard tried < limit else {
                throw SweepError.samplingExhausted(found: samples.count, wanted: count, draws: tried, refusal: refusal)
            }
            tried += 1
            let values = draws.map { $0.value(&random) }
            guard seen.insert(values).inserted else { continue }
            do {
                _ = try AnalyzerSetup.resolve(descriptor, instance: grid.name, overrides: grid.fixed + zip(grid.axes, values).map { ($0.key, $1) })
            } catch {
                refusal = error
                continue
            }
            samples.append(values)
        }
        return samples
    }
}
