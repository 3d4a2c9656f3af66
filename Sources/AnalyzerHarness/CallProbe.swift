import Foundation
import LumaAnalysis
import LumaEngine
import Synchronization

/// Wraps an analyzer to count how the engine calls it: `init`, `analyze` per frame, `finish`.
/// The counts live in ``CallLedger`` (a probe is created by the engine, out of the harness's reach),
/// under the instance name the probed replay gave it, which is that replay's own.
struct CallProbe<A: Analyzer>: Analyzer where A.Configuration: Sendable {
    typealias Configuration = A.Configuration
    static var name: String { A.name }
    static var version: String { A.version }

    private var inner: A
    private let run: String

    init(configuration: Configuration, context: AnalyzerContext) throws {
        inner = try A(configuration: configuration, context: context)
        run = context.instanceName(of: A.self)
        CallLedger.shared.record(run) { $0.starts += 1 }
    }

    mutating func analyze(_ frame: Frame, into events: inout EventSink) throws {
        CallLedger.shared.record(run) {
            if $0.finishes > 0 { $0.callsAfterFinish += 1 }
            $0.frames += 1
        }
        try inner.analyze(frame, into: &events)
    }

    mutating func finish(into events: inout EventSink) throws {
        CallLedger.shared.record(run) { $0.finishes += 1 }
        try inner.finish(into: &events)
    }
}

/// How probed analyzers were called, one entry per probed replay: each replay runs its probe under
/// an instance name of its own (``newRunName()``), so two checks running at the same time, of the
/// same analyzer or not, never count each other's calls.
final class CallLedger: Sendable {
    struct Counts: Equatable, Sendable {
        var starts = 0
        var frames = 0
        var finishes = 0
        var callsAfterFinish = 0
    }

    static let shared = CallLedger()
    private let counts = Mutex<[String: Counts]>([:])
    private let runsNamed = Atomic<Int>(0)

    /// An instance name no other probed replay of this process has: `probe-1`, `probe-2`, …
    func newRunName() -> String { "probe-\(runsNamed.add(1, ordering: .relaxed).newValue)" }

    func record(_ run: String, _ change: (inout Counts) -> Void) { counts.withLock { change(&$0[run, default: Counts()]) } }

    /// Runs `body` with a new run name, for the probed replay it makes, and returns the calls that
    /// replay's probe counted (the entry is removed).
    func measure(_ body: (_ run: String) throws -> Void) rethrows -> Counts {
        let run = newRunName()
        defer { _ = counts.withLock { $0.removeValue(forKey: run) } }
        try body(run)
        return counts.withLock { $0[run] ?? Counts() }
    }
}
