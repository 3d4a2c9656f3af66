import Foundation

/// One line a benchmark wrote with `--json`, read back to make the README's tables.
struct ResultLine {
    /// What every line says about its run.
    struct Header: Decodable, Equatable {
        let benchmark: String
        let date: String?
        let commit: String?
        let commitModified: Bool?
        let runs: Int?
    }

    /// `file:line`, for messages.
    let place: String
    let header: Header
    let data: Data

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()

    /// The result lines of every file, by area, in the order read. Lines of a benchmark that
    /// makes no table (`tracking-scaling`) are left out; anything else that is not a result line
    /// of a known area is refused, naming the file and line.
    static func read(_ paths: [String]) throws(TablesError) -> [BenchArea: [ResultLine]] {
        var byArea: [BenchArea: [ResultLine]] = [:]
        for path in paths {
            let text: String
            do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
            }
            var count = 0
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
                let place = "\(path):\(index + 1)"
                let data = Data(line.utf8)
                guard line.hasPrefix("{"), let header = try? decoder.decode(Header.self, from: data) else {
                    throw .notAResultLine(place: place, text: String(line.prefix(60)))
                }
                if header.benchmark == "tracking-scaling" { continue }
                guard let area = BenchArea(rawValue: header.benchmark) else {
                    throw .unknownBenchmark(place: place, name: header.benchmark)
                }
                byArea[area, default: []].append(ResultLine(place: place, header: header, data: data))
                count += 1
            }
            if count == 0 { throw .noResults(path: path) }
        }
        return byArea
    }
}

/// When and how one area's lines were measured: the same for every line of the area, or the
/// table could not say where its figures come from.
struct TableProvenance: Equatable {
    let date: String
    let commit: String?
    let commitModified: Bool
    let runs: Int

    init(_ lines: [ResultLine], area: BenchArea) throws(TablesError) {
        let headers = lines.map(\.header)
        for (line, header) in zip(lines, headers) where header.date == nil || header.runs == nil {
            throw .noProvenance(place: line.place)
        }
        let first = headers[0]
        if let other = zip(lines, headers).first(where: {
            $0.1.date != first.date || $0.1.runs != first.runs || $0.1.commit != first.commit || $0.1.commitModified != first.commitModified
        }) {
            throw .mixedRuns(area: area.rawValue, first: lines[0].place, other: other.0.place)
        }
        date = first.date!
        runs = first.runs!
        commit = first.commit
        commitModified = first.commitModified ?? false
    }

    /// "median of 5 runs, one thread, measured 2026-11-22 at commit `4532279`".
    var caption: String { caption(threads: "one thread") }

    /// The caption naming how the runs used the CPU, e.g. "three threads on one core".
    func caption(threads: String) -> String {
        "median of \(runs) run\(runs == 1 ? "" : "s"), \(threads), measured \(date)"
            + (commit.map { " at commit `\($0)`" + (commitModified ? " with uncommitted changes" : "") } ?? "")
    }
}

/// Why `tables` cannot make or write the tables, each saying what to do.
enum TablesError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case notAResultLine(place: String, text: String)
    case unknownBenchmark(place: String, name: String)
    case noResults(path: String)
    case unexpectedLine(place: String, reason: String)
    case noProvenance(place: String)
    case mixedRuns(area: String, first: String, other: String)
    case missingAverage(place: String)
    case missingMarkers(path: String, area: String)

    var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "\(path): cannot read it (\(reason))"
        case .notAResultLine(let place, let text):
            return "\(place): not a result line ('\(text)…'); pass the output of a run with --json, e.g. `Benchmarks/run codec --json > codec.json`"
        case .unknownBenchmark(let place, let name):
            return "\(place): no table for benchmark '\(name)'; the areas are \(BenchArea.allCases.map(\.rawValue).joined(separator: ", "))"
        case .noResults(let path):
            return "\(path): holds no result line (did the run measure nothing, or fail?)"
        case .unexpectedLine(let place, let reason):
            return "\(place): \(reason); was it written by an older lumatrace-bench? Run the benchmark again"
        case .noProvenance(let place):
            return "\(place): no date or run count (written by an older lumatrace-bench); run the benchmark again"
        case .mixedRuns(let area, let first, let other):
            return "\(area): \(first) and \(other) come from different runs (date, commit or run count differ); "
                + "a table quotes one run: pass one run's file per area"
        case .missingAverage(let place):
            return "\(place): the tracking results have no `average` line; pass the whole output of `Benchmarks/run tracking --json`"
        case .missingMarkers(let path, let area):
            return "\(path): no \(MarkedSections.begin(area)) … \(MarkedSections.end(area)) lines; put them around the \(area) table"
        }
    }
}
