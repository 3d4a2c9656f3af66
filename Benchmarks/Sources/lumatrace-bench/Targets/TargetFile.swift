import Foundation

/// `Benchmarks/targets.json`: every target and floor the benchmarks judge (see `Target`), by area
/// and metric. The file is the only place a target's value lives; the benchmarks read it at
/// start-up and refuse it, before measuring anything, when it names an area, a metric or an input
/// they do not know (or a design, where the area measures designs), judges an input twice, or sets a
/// floor stricter than its target.
struct TargetFile: Sendable {
    /// `Benchmarks/targets.json` in the package (found from this source file's path).
    static var defaultPath: String { BenchSettings.benchmarksFolder.appendingPathComponent("targets.json").path }

    private let areas: [BenchArea: [String: [Target]]]

    /// The targets of one area (none when the file has no section for it).
    func targets(for area: BenchArea) -> AreaTargets { AreaTargets(area: area, byMetric: areas[area] ?? [:]) }

    /// Reads and checks the file at `path`.
    static func load(_ path: String = defaultPath) throws(TargetFileError) -> TargetFile {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        let sections: [String: [String: MetricTargets]]
        do { sections = try JSONDecoder().decode([String: [String: MetricTargets]].self, from: data) } catch let error as DecodingError {
            throw .malformed(path: path, reason: error.readable)
        } catch {
            throw .malformed(path: path, reason: "\(error)")
        }
        var areas: [BenchArea: [String: [Target]]] = [:]
        for (name, targets) in sections.sorted(by: { $0.key < $1.key }) {
            guard let area = BenchArea(rawValue: name) else {
                throw .unknownArea(path: path, area: name, known: BenchArea.allCases.map(\.rawValue))
            }
            for (metric, listed) in targets.sorted(by: { $0.key < $1.key }) {
                guard area.metricKeys.contains(metric) else {
                    throw .unknownMetric(path: path, area: name, metric: metric, known: area.metricKeys)
                }
                for target in listed.targets {
                    for input in target.inputs ?? [] where !area.inputNames.contains(input) {
                        throw .unknownInput(path: path, area: name, metric: metric, input: input, known: area.inputNames)
                    }
                    for design in target.designs ?? [] where !area.designNames.contains(design) {
                        throw .unknownDesign(path: path, area: name, metric: metric, design: design, known: area.designNames)
                    }
                    if let inputs = target.inputs, let twice = inputs.first(where: { input in inputs.count(where: { $0 == input }) > 1 }) {
                        throw .judgedTwice(path: path, area: name, metric: metric, input: twice, design: nil, floors: target.isFloor)
                    }
                }
                // Targets and floors are checked apart: an input may have one of each (per design).
                // Of the targets that judge a figure, the most specific (listing inputs, listing
                // designs) does; two equally specific ones would judge it twice.
                let designs: [String?] = area.designNames.isEmpty ? [nil] : area.designNames
                for isFloor in [false, true] {
                    for input in area.inputNames {
                        for design in designs {
                            let judging = listed.targets.filter { $0.isFloor == isFloor && $0.applies(to: input, design: design) }
                            guard let top = judging.map(\.specificity).max() else { continue }
                            let twins = judging.filter { $0.specificity == top }
                            guard twins.count == 1 else {
                                throw .judgedTwice(path: path, area: name, metric: metric,
                                                   input: twins.allSatisfy { $0.inputs == nil } ? nil : input,
                                                   design: twins.allSatisfy { $0.designs == nil } ? nil : design, floors: isFloor)
                            }
                        }
                    }
                }
                // A floor is the least a run may measure: a figure that reaches the target must
                // clear the floor on the same input, or the floor would fail runs the target passes.
                let byMetric = AreaTargets(area: area, byMetric: [metric: listed.targets])
                for input in area.inputNames {
                    for design in designs {
                        guard let target = byMetric.target(metric, judging: input, design: design),
                              let floor = byMetric.floor(metric, judging: input, design: design) else { continue }
                        if target.comparison != floor.comparison || !floor.isMet(by: target.value) {
                            throw .floorBeyondTarget(path: path, area: name, metric: metric, input: input, design: design, floor: floor, target: target)
                        }
                    }
                }
            }
            areas[area] = targets.mapValues(\.targets)
        }
        return TargetFile(areas: areas)
    }
}

/// A metric's entry in the file: one target, or a list of them that judge different inputs
/// (`[{"value": 1000, "inputs": [clips…]}, {"value": 600, "inputs": ["synthetic"]}]`).
private struct MetricTargets: Decodable {
    let targets: [Target]

    init(from decoder: any Decoder) throws {
        if var elements = try? decoder.unkeyedContainer() {
            var list: [Target] = []
            while !elements.isAtEnd { list.append(try elements.decode(Target.self)) }
            guard !list.isEmpty else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "is an empty list; give one target or leave the metric out"))
            }
            targets = list
        } else {
            targets = [try Target(from: decoder)]
        }
    }
}

/// One area's targets and floors, by metric.
struct AreaTargets: Sendable {
    let area: BenchArea
    let byMetric: [String: [Target]]

    /// The plain target that judges `input` (measured with `design`, in an area that has designs)
    /// on `metric`: of those that judge it, the most specific (`Target.specificity`; the file is
    /// refused when two are equally so).
    func target(_ metric: String, judging input: String, design: String? = nil) -> Target? {
        mostSpecific((byMetric[metric] ?? []).filter { !$0.isFloor && $0.applies(to: input, design: design) })
    }

    /// The floor that judges `input` (measured with `design`) on `metric`, chosen as `target` chooses.
    func floor(_ metric: String, judging input: String, design: String? = nil) -> Target? {
        mostSpecific((byMetric[metric] ?? []).filter { $0.isFloor && $0.applies(to: input, design: design) })
    }

    private func mostSpecific(_ targets: [Target]) -> Target? {
        targets.max { $0.specificity < $1.specificity }
    }

    /// The checks on one input's figures (measured with `design`, in an area that has designs), in
    /// the order measured: per metric, its plain target, then its floor if one judges the input.
    /// When no target judges the figure, the one that judges this input with another design (else
    /// the metric's first) is shown as what the figure would be held to; likewise a floor that
    /// judges this input only with another design is shown, never judged.
    func checks(_ metrics: [Metric], input: String, design: String? = nil) -> [TargetCheck] {
        metrics.flatMap { metric -> [TargetCheck] in
            assert(area.metricKeys.contains(metric.key), "\(area.rawValue) measures \(metric.key) but does not list it in metricKeys")
            let all = byMetric[metric.key] ?? []
            /// The most specific of `kind` that judges this input with some design, ignoring `design`.
            func otherDesign(_ kind: [Target]) -> Target? {
                design == nil ? nil : mostSpecific(kind.filter { $0.applies(to: input) && !$0.judges(design: design) })
            }
            var checks: [TargetCheck] = []
            let plain = all.filter { !$0.isFloor }
            if let target = target(metric.key, judging: input, design: design) {
                checks.append(TargetCheck(metric: metric, target: target, applies: true))
            } else if let shown = otherDesign(plain) ?? plain.first {
                checks.append(TargetCheck(metric: metric, target: shown, applies: false))
            }
            if let floor = floor(metric.key, judging: input, design: design) {
                checks.append(TargetCheck(metric: metric, target: floor, applies: true))
            } else if let shown = otherDesign(all.filter(\.isFloor)) {
                checks.append(TargetCheck(metric: metric, target: shown, applies: false))
            }
            return checks
        }
    }
}

/// Why `Benchmarks/targets.json` cannot be used, each saying what to change.
enum TargetFileError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case malformed(path: String, reason: String)
    case unknownArea(path: String, area: String, known: [String])
    case unknownMetric(path: String, area: String, metric: String, known: [String])
    case unknownInput(path: String, area: String, metric: String, input: String, known: [String])
    /// A target names a design its area does not measure (`known` is empty in an area without designs).
    case unknownDesign(path: String, area: String, metric: String, design: String, known: [String])
    /// Two equally specific targets (or floors) of one metric judge the same input (`nil`: two of
    /// them judge every input) with the same design (`nil`: every design, or an area without them).
    case judgedTwice(path: String, area: String, metric: String, input: String?, design: String?, floors: Bool)
    /// A floor stricter than the target on the same input and design (or judging the other way).
    case floorBeyondTarget(path: String, area: String, metric: String, input: String, design: String?, floor: Target, target: Target)

    var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "\(path): cannot read the targets file (\(reason)); it belongs next to Benchmarks/Package.swift"
        case .malformed(let path, let reason):
            return "\(path): \(reason). Each target is {\"comparison\": \">=\" or \"<=\", \"value\": N, \"why\": \"issue …\"}, "
                + "optionally with \"inputs\": [names], \"designs\": [names] (trajectory) and \"floor\": true (a miss fails the run), under its area and metric "
                + "(or a list of them for different inputs)"
        case .unknownArea(let path, let area, let known):
            return "\(path): no benchmark area '\(area)'; the areas are \(known.joined(separator: ", "))"
        case .unknownMetric(let path, let area, let metric, let known):
            return "\(path): \(area) measures no metric '\(metric)'; it measures \(known.joined(separator: ", "))"
        case .unknownInput(let path, let area, let metric, let input, let known):
            return "\(path): \(area).\(metric) lists input '\(input)', which \(area) does not measure; its inputs are \(known.joined(separator: ", "))"
        case .unknownDesign(let path, let area, let metric, let design, let known):
            return known.isEmpty
                ? "\(path): \(area).\(metric) lists design '\(design)', but \(area) measures no designs; leave \"designs\" out"
                : "\(path): \(area).\(metric) lists design '\(design)', which \(area) does not measure; its designs are \(known.joined(separator: ", "))"
        case .judgedTwice(let path, let area, let metric, let input, let design, let floors):
            let kind = floors ? "floors" : "targets"
            return "\(path): \(area).\(metric) has two \(kind) for " + (input.map { "input '\($0)'" } ?? "every input (neither lists \"inputs\")")
                + (design.map { " with design '\($0)'" } ?? "")
                + "; a list must judge each input (and design) with at most one target and one floor, "
                + "the one listing inputs or designs winning over one that does not"
        case .floorBeyondTarget(let path, let area, let metric, let input, let design, let floor, let target):
            let both = "the floor \(floor.comparison.rawValue) \(shortest(floor.value)) and the target \(target.comparison.rawValue) \(shortest(target.value))"
            return "\(path): \(area).\(metric) on '\(input)'" + (design.map { " with design '\($0)'" } ?? "") + ": " + (floor.comparison != target.comparison
                ? "\(both) judge in opposite directions; give the floor the target's \"comparison\""
                : "\(both): the floor is the stricter; a floor is the least a run may measure, so set it "
                  + (floor.comparison == .atLeast ? "at or below" : "at or above") + " the target, or make it the target")
        }
    }
}

extension DecodingError {
    /// Where in the file and what is wrong, in one line: `codec.decode_mbps.comparison: takes ">=" …`.
    var readable: String {
        func at(_ path: [any CodingKey]) -> String {
            // codec.decode_mbps[0].comparison
            path.isEmpty ? "at the top level" : path.enumerated().map { i, key in
                key.intValue.map { "[\($0)]" } ?? (i == 0 ? "" : ".") + key.stringValue
            }.joined()
        }
        switch self {
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON (\(context.underlyingError.map { "\($0)" } ?? context.debugDescription))"
                : "\(at(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(at(context.codingPath)): no \"\(key.stringValue)\""
        case .typeMismatch(let type, let context):
            return "\(at(context.codingPath)): expected \(type == Double.self ? "a number" : type == String.self ? "a string" : type == Bool.self ? "true or false" : "\(type)")"
        case .valueNotFound(_, let context):
            return "\(at(context.codingPath)): null where a value is needed"
        @unknown default:
            return "\(self)"
        }
    }
}
