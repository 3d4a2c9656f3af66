import Foundation

/// A figure a benchmark must reach, from `Benchmarks/targets.json`: at least or at most a value,
/// on every input or on the inputs listed (and, in an area that measures several designs of its
/// analyzer, on every design or on the designs listed), and why (the issue that asked for it).
///
/// ```json
/// "size_vs_ffv1": {"comparison": "<=", "value": 0.7, "inputs": ["vtest", "cdnet"],
///                  "why": "issue 2: smaller than FFV1 on real video"}
/// ```
///
/// A plain target is what the project aims at: a miss is printed as FAIL and the run goes on to
/// exit 0. A *floor* (`"floor": true`) is the least a run may measure, well below the target, so
/// that only a real regression crosses it: a miss is printed as well, and once everything is
/// printed the benchmark exits with `FloorCheck.missedStatus` (3). A metric may have a target and
/// a floor on the same input.
///
/// ```json
/// "analyzer_fps": [
///   {"comparison": ">=", "value": 1000, "inputs": ["court-720p"], "why": "issue 43: …"},
///   {"comparison": ">=", "value": 300, "inputs": ["court-720p"], "floor": true, "why": "issue 43: …"}]
/// ```
///
/// In an area that measures each input once per design (`trajectory`: `tracking` and `window`), a
/// target may name the designs it judges; on the others its figure is shown with whether it would
/// pass, as on an input it does not judge, and a floor judging only other designs never fails the run.
///
/// ```json
/// {"comparison": ">=", "value": 300, "inputs": ["court-720p"], "designs": ["window"], "floor": true, "why": "issue 43: …"}
/// ```
struct Target: Equatable, Sendable {
    enum Comparison: String, Sendable {
        /// The figure must be ≥ the value.
        case atLeast = ">="
        /// The figure must be ≤ the value.
        case atMost = "<="

        /// How a report prints it: ≥ or ≤.
        var symbol: String { self == .atLeast ? "≥" : "≤" }
    }

    let comparison: Comparison
    let value: Double
    /// The inputs it judges (`nil`: every input). On the others the figure is still shown, and
    /// the report says whether it would pass.
    let inputs: [String]?
    /// The designs it judges (`nil`: every design, and the only choice in an area without
    /// designs). On the others the figure is still shown, and the report says whether it would pass.
    let designs: [String]?
    /// Why this target: the issue and what it asks, in a few words.
    let why: String
    /// Whether this is a floor: missing it makes the benchmark exit non-zero.
    let isFloor: Bool

    /// "target" or "floor", as reports name it.
    var kind: String { isFloor ? "floor" : "target" }

    /// Whether `figure` meets the target; a figure that is not a number (a ratio to zero) never does.
    func isMet(by figure: Double) -> Bool {
        guard !figure.isNaN else { return false }
        return comparison == .atLeast ? figure >= value : figure <= value
    }

    /// Whether the target judges `input` (measured with `design`, in an area that has designs).
    func applies(to input: String, design: String? = nil) -> Bool {
        (inputs?.contains(input) ?? true) && judges(design: design)
    }

    /// Whether the target judges figures of `design` (`nil`: an area without designs).
    func judges(design: String?) -> Bool {
        guard let design, let designs else { return true }
        return designs.contains(design)
    }

    /// How specifically it names what it judges: 1 for listing inputs, 1 for listing designs.
    /// Where several targets judge the same figure, the most specific one does.
    var specificity: Int { (inputs == nil ? 0 : 1) + (designs == nil ? 0 : 1) }

    /// What it is for, in a report of a figure it does not judge: "court-720p, juggling-720p",
    /// "design window" or "court-720p with design window".
    var scope: String {
        let named = inputs.map { $0.joined(separator: ", ") }
        let design = designs.map { "design" + ($0.count == 1 ? " " : "s ") + $0.joined(separator: ", ") }
        switch (named, design) {
        case let (named?, design?): return "\(named) with \(design)"
        case let (named?, nil): return named
        case let (nil, design?): return design
        case (nil, nil): return "every input"
        }
    }
}

extension Target: Decodable {
    private enum Key: String, CodingKey, CaseIterable { case comparison, value, inputs, designs, floor, why }

    /// Any key of a target's object, to refuse the ones `Key` does not know (a misspelt `inputs`
    /// would otherwise make a target judge every input).
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        for key in try decoder.container(keyedBy: AnyKey.self).allKeys where Key(rawValue: key.stringValue) == nil {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath + [key],
                debugDescription: "unknown key; a target has \(Key.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))"))
        }
        let container = try decoder.container(keyedBy: Key.self)
        let comparison = try container.decode(String.self, forKey: .comparison)
        guard let parsed = Comparison(rawValue: comparison) else {
            throw DecodingError.dataCorruptedError(forKey: .comparison, in: container,
                                                   debugDescription: "takes \">=\" (at least) or \"<=\" (at most), not \"\(comparison)\"")
        }
        self.comparison = parsed
        value = try container.decode(Double.self, forKey: .value)
        inputs = try container.decodeIfPresent([String].self, forKey: .inputs)
        designs = try container.decodeIfPresent([String].self, forKey: .designs)
        if let designs, designs.isEmpty {
            throw DecodingError.dataCorruptedError(forKey: .designs, in: container,
                                                   debugDescription: "is an empty list; name the designs it judges, or leave it out to judge every design")
        }
        isFloor = try container.decodeIfPresent(Bool.self, forKey: .floor) ?? false
        why = try container.decode(String.self, forKey: .why)
        guard !why.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .why, in: container,
                                                   debugDescription: "is empty; say which issue asks for this target")
        }
    }
}
