import ArgumentParser
import Foundation

/// What one measured input reports: its table, its target checks and its JSON line.
protocol BenchResult {
    /// The input's name in the summary line (e.g. `vtest`), as a target's `inputs` lists it; in
    /// an area that measures designs, with the design (`court-720p (window)`).
    var name: String { get }
    var checks: [TargetCheck] { get }
    func table() -> String
    func jsonLine() -> String
}

/// Prints, after every input's table, one line counting the targets met and naming the failing
/// ones, and one counting the floors met and naming the missed ones (unless `jsonOnly`), then each
/// result's JSON line. Returns the floors missed: the caller, once it has printed everything else,
/// hands them to `FloorCheck.require`.
func printSummary(_ results: [BenchResult], jsonOnly: Bool, nothingMeasured: String) -> FloorCheck {
    let judged = results.flatMap { r in r.checks.filter(\.applies).map { (input: r.name, check: $0) } }
    let floors = FloorCheck(missed: judged.filter(\.check.missesFloor).map { MissedFloor(input: $0.input, check: $0.check) })
    if !jsonOnly {
        let targets = judged.filter { !$0.check.target.isFloor }, floorChecks = judged.filter(\.check.target.isFloor)
        let failed = targets.filter { !$0.check.pass }
        print(results.isEmpty ? nothingMeasured
              : targets.isEmpty ? "targets (Benchmarks/targets.json): none judges this run"
              : "targets (Benchmarks/targets.json): \(targets.count - failed.count) of \(targets.count) pass"
                + (failed.isEmpty ? "" : "; failing: " + failed.map { "\($0.input) \($0.check.metric.key)" }.joined(separator: ", ")))
        if !floorChecks.isEmpty {
            print("floors (Benchmarks/targets.json): \(floorChecks.count - floors.missed.count) of \(floorChecks.count) met"
                  + (floors.missed.isEmpty ? "" : "; MISSED: " + floors.missed.map(\.summary).joined(separator: ", ")
                     + " (the run exits \(FloorCheck.missedStatus))"))
        }
        // Figures of a design no target judges (the trajectory benchmark's tracking design) are
        // shown, not judged: say how they would fare, so a summary of passes does not hide them.
        let designShown = results.flatMap { r in r.checks.filter { !$0.applies && $0.target.designs != nil }.map { (input: r.name, check: $0) } }
        if !designShown.isEmpty {
            let wouldFail = designShown.filter { !$0.check.pass }
            print("shown, not judged (targets and floors of other designs): \(designShown.count - wouldFail.count) of \(designShown.count) would pass"
                  + (wouldFail.isEmpty ? "" : "; would fail: " + wouldFail.map { "\($0.input) \($0.check.metric.key)"
                      + ($0.check.target.isFloor ? " (floor)" : "") }.joined(separator: ", ")))
        }
        print("")
    }
    for result in results { print(result.jsonLine()) }
    return floors
}

/// The floors one run missed, and what missing one does: after everything is printed, the
/// benchmark names each on standard error and exits with `missedStatus`, so that a script or CI
/// running it stops on a speed regression (a missed plain target only prints FAIL).
struct FloorCheck {
    /// The exit status of a run that measured and printed everything but missed a floor; a run
    /// that could not measure exits 1 (ArgumentParser's failure status), so `scripts/benchmark-tables`
    /// can still write the tables of a run that missed a floor.
    static let missedStatus: Int32 = 3

    /// Each missed floor with the input it was measured on.
    let missed: [MissedFloor]

    /// Exits with `missedStatus` (through ArgumentParser's `ExitCode`) after naming every missed
    /// floor on standard error; returns when none was missed.
    func require() throws {
        guard !missed.isEmpty else { return }
        for floor in missed { log("FLOOR MISSED: \(floor.summary) (\(floor.check.target.why))") }
        log("\(missed.count) floor\(missed.count == 1 ? "" : "s") of Benchmarks/targets.json missed: exiting with status \(Self.missedStatus)")
        throw ExitCode(Self.missedStatus)
    }
}

/// A floor one input missed.
struct MissedFloor {
    let input: String
    let check: TargetCheck

    /// "court-720p analyzer_fps 27.1 frames/s misses floor ≥ 300 frames/s".
    var summary: String { "\(input) \(check.metric.key) \(check.metric.format(check.metric.value)) misses \(check.requirement)" }
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

/// `measureEach` for a benchmark that measures several results on each item (the trajectory
/// benchmark: one per design on each input): prints each item's tables as soon as it is measured
/// unless `jsonOnly`, and returns every result in order.
func measureEachGroup<Item, Result: BenchResult>(_ items: [Item], jsonOnly: Bool, _ measure: (Item) throws -> [Result]) throws -> [Result] {
    var results: [Result] = []
    for item in items {
        let group = try measure(item)
        if !jsonOnly {
            for result in group {
                print(result.table())
                print("")
            }
        }
        results += group
    }
    return results
}
