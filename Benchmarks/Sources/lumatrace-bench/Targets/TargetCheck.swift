import Foundation

/// A figure a benchmark measured on one input and a target may judge: its key (in targets.json and
/// the JSON output), what it is in words, and how to print it.
struct Metric {
    enum Unit {
        /// Megabytes (10^6 bytes) of raw frames per second.
        case megabytesPerSecond
        case framesPerSecond
        /// A speed ratio, printed with ×.
        case times
        /// A size ratio, printed bare.
        case fraction
    }

    let key: String
    let label: String
    let value: Double
    let unit: Unit

    /// `figure` in this metric's unit: "1793.2 MB/s", "817.5 frames/s", "7.64×", "0.641".
    func format(_ figure: Double) -> String {
        switch unit {
        case .megabytesPerSecond: return fixed(figure, 1) + " MB/s"
        case .framesPerSecond: return fixed(figure, 1) + " frames/s"
        case .times: return fixed(figure, 2) + "×"
        case .fraction: return fixed(figure, 3)
        }
    }

    /// A target value in this metric's unit, as the file gives it: "≥ 1000 MB/s", "≤ 0.7", "≥ 3×".
    func format(_ target: Target) -> String {
        let value = shortest(target.value)
        let suffix = [Unit.megabytesPerSecond: " MB/s", .framesPerSecond: " frames/s", .times: "×"][unit] ?? ""
        return target.comparison.symbol + " " + value + suffix
    }
}

/// One target or floor checked on one input's figure.
struct TargetCheck {
    let metric: Metric
    let target: Target
    /// `false` when the target lists inputs (or designs) and this figure's is not one of them: the
    /// figure is shown, not judged. A floor is shown only on an input it judges with another design.
    let applies: Bool

    var pass: Bool { target.isMet(by: metric.value) }
    /// Whether this check is of a floor that judges the input and was missed: what fails the run.
    var missesFloor: Bool { target.isFloor && applies && !pass }

    /// "target ≥ 1000 frames/s" or "floor ≥ 300 frames/s".
    var requirement: String { target.kind + " " + metric.format(target) }

    /// PASS or FAIL (for a floor, FAIL says the run fails); for a target or floor that does not
    /// judge this input or design, whether it would pass: "(floor is for design window; would fail)".
    var verdict: String {
        applies ? (pass ? "PASS" : target.isFloor ? "FAIL (floor missed: the run exits \(FloorCheck.missedStatus))" : "FAIL")
            : "(\(target.kind) is for \(target.scope); \(pass ? "would pass" : "would fail"))"
    }

    /// The check as the JSON output gives it, under its metric's key.
    var json: (String, JSON) {
        (metric.key, .object([
            ("value", .number(metric.value, 4)), ("comparison", .string(target.comparison.rawValue)),
            ("target", .exact(target.value)), ("applies", .bool(applies)), ("pass", .bool(pass)),
        ]))
    }
}

extension [TargetCheck] {
    /// The `targets` and `floors` objects of a JSON line (each by metric key, with `applies`;
    /// `floors` holds the floors that judge this input, or that judge it with another design),
    /// `all_pass` (every target and floor judging this input is met) and `floors_pass` (every
    /// floor judging it is).
    var jsonFields: [(String, JSON)] {
        let plain = filter { !$0.target.isFloor }, floors = filter(\.target.isFloor)
        return [("targets", .object(plain.map(\.json))), ("floors", .object(floors.map(\.json))),
                ("all_pass", .bool(allSatisfy { !$0.applies || $0.pass })), ("floors_pass", .bool(!contains(where: \.missesFloor)))]
    }
}
