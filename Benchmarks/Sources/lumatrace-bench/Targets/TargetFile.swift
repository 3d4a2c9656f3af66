import Foundation

/// `Benchmarks/targets.json`: every target the benchmarks judge, by area and metric. The file is
/// the only place a target's value lives; the benchmarks read it at start-up and refuse it, before
/// measuring anything, when it names an area, a metric or an input they do not know.
struct TargetFile: Sendable {
    /// `Benchmarks/targets.json` in the package (found from this source file's path).
    static var defaultPath: String { BenchSettings.benchmarksFolder.appendingPathComponent("targets.json").path }

    private let areas: [BenchArea: [String: Target]]

    /// The targets of one area (none when the file has no section for it).
    func targets(for area: BenchArea) -> AreaTargets { AreaTargets(area: area, byMetric: areas[area] ?? [:]) }

    /// Reads and checks the file at `path`.
    static func load(_ path: String = defaultPath) throws(TargetFileError) -> TargetFile {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        let sections: [String: [String: Target]]
        do { sections = try JSONDecoder().decode([String: [String: Target]].self, from: data) } catch let error as DecodingError {
            throw .malformed(path: path, reason: error.readable)
        } catch {
            throw .malformed(path: path, reason: "\(error)")
        }
        var areas: [BenchArea: [String: Target]] = [:]
        for (name, targets) in sections.sorted(by: { $0.key < $1.key }) {
            guard let area = BenchArea(rawValue: name) else {
                throw .unknownArea(path: path, area: name, known: BenchArea.allCases.map(\.rawValue))
            }
            for (metric, target) in targets.sorted(by: { $0.key < $1.key }) {
                guard area.metricKeys.contains(metric) else {
                    throw .unknownMetric(path: path, area: name, metric: metric, known: area.metricKeys)
                }
                for input in target.inputs ?? [] where !area.inputNames.contains(input) {
                    throw .unknownInput(path: path, area: name, metric: metric, input: input, known: area.inputNames)
                }
            }
            areas[area] = targets
        }
        return TargetFile(areas: areas)
    }
}

/// One area's targets, by metric.
struct AreaTargets: Sendable {
    let area: BenchArea
    let byMetric: [String: Target]

    /// The checks on one input's figures: one per metric that has a target, in the order measured.
    func checks(_ metrics: [Metric], input: String) -> [TargetCheck] {
        metrics.compactMap { metric in
            assert(area.metricKeys.contains(metric.key), "\(area.rawValue) measures \(metric.key) but does not list it in metricKeys")
            return byMetric[metric.key].map { TargetCheck(metric: metric, target: $0, applies: $0.applies(to: input)) }
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

    var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "\(path): cannot read the targets file (\(reason)); it belongs next to Benchmarks/Package.swift"
        case .malformed(let path, let reason):
            return "\(path): \(reason). Each target is {\"comparison\": \">=\" or \"<=\", \"value\": N, \"why\": \"issue …\"}, "
                + "optionally with \"inputs\": [names], under its area and metric"
        case .unknownArea(let path, let area, let known):
            return "\(path): no benchmark area '\(area)'; the areas are \(known.joined(separator: ", "))"
        case .unknownMetric(let path, let area, let metric, let known):
            return "\(path): \(area) measures no metric '\(metric)'; it measures \(known.joined(separator: ", "))"
        case .unknownInput(let path, let area, let metric, let input, let known):
            return "\(path): \(area).\(metric) lists input '\(input)', which \(area) does not measure; its inputs are \(known.joined(separator: ", "))"
        }
    }
}

extension DecodingError {
    /// Where in the file and what is wrong, in one line: `codec.decode_mbps.comparison: takes ">=" …`.
    var readable: String {
        func at(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "at the top level" : path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch self {
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON (\(context.underlyingError.map { "\($0)" } ?? context.debugDescription))"
                : "\(at(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(at(context.codingPath)): no \"\(key.stringValue)\""
        case .typeMismatch(let type, let context):
            return "\(at(context.codingPath)): expected \(type == Double.self ? "a number" : type == String.self ? "a string" : "\(type)")"
        case .valueNotFound(_, let context):
            return "\(at(context.codingPath)): null where a value is needed"
        @unknown default:
            return "\(self)"
        }
    }
}
