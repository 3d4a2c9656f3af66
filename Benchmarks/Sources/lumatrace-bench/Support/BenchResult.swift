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
