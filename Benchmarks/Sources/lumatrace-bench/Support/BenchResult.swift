import Foundation

/// What one measured input reports: its table, its target checks and its JSON line.
protocol BenchResult {
    /// The input's name in the summary line and in a target's `inputs` (e.g. `vtest`, `720p`).
    var name: String { get }
    var checks: [TargetCheck] { get }
    func table() -> String
    func jsonLine() -> String
}

/// Prints, after every input's table, one line counting the targets met and naming the failing
/// ones (unless `jsonOnly`), then each result's JSON line.
func printSummary(_ results: [BenchResult], jsonOnly: Bool, nothingMeasured: String) {
    if !jsonOnly {
        let checks = results.flatMap { r in r.checks.filter(\.applies).map { (r.name, $0) } }
        let failed = checks.filter { !$0.1.pass }
        print(results.isEmpty ? nothingMeasured
              : checks.isEmpty ? "targets (Benchmarks/targets.json): none judges this run"
              : "targets (Benchmarks/targets.json): \(checks.count - failed.count) of \(checks.count) pass"
                + (failed.isEmpty ? "" : "; failing: " + failed.map { "\($0.0) \($0.1.metric.key)" }.joined(separator: ", ")))
        print("")
    }
    for result in results { print(result.jsonLine()) }
}

/// Measures each of `items` in turn (`measure` returns `nil` for one it skips, having said why),
/// printing each result's table as soon as it is measured unless `jsonOnly`; returns the results.
func measureEach<Item, Result: BenchResult>(_ items: [Item], jsonOnly: Bool, _ measure: (Item) throws -> Result?) throws -> [Result] {
    var results: [Result] = []
    for item in items {
        guard let result = try measure(item) else { continue }
        if !jsonOnly {
            print(result.table())
            print("")
        }
        results.append(result)
    }
    return results
}
