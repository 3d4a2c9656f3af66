import LumaAnalysis
import LumaEngine
import Synchronization

/// Wraps an analyzer to count how the engine calls it: `init`, `analyze` per frame, `finish`.
/// The counts live in ``CallLedger`` (a probe is created by the engine, out of the harness's reach).
struct CallProbe<A: Analyzer>: Analyzer where A.Configuration: Sendable {
    typealias Configuration = A.Configuration
    static var name: String { A.name }
    static var version: String { A.version }

    private var inner: A

    init(configuration: Configuration, context: AnalyzerContext) throws {
        inner = try A(configuration: configuration, context: context)
        CallLedger.shared.record(A.name) { $0.starts += 1 }
    }

    mutating func analyze(_ frame: Frame, into events: inout EventSink) throws {
        CallLedger.shared.record(A.name) {
            if $0.finishes > 0 { $0.callsAfterFinish += 1 }
            $0.frames += 1
        }
        try inner.analyze(frame, into: &events)
    }

    mutating func finish(into events: inout EventSink) throws {
        CallLedger.shared.record(A.name) { $0.finishes += 1 }
        try inner.finish(into: &events)
    }
}

/// How probed analyzers were called during one replay each, by analyzer name (so checks of
/// different analyzers running at the same time do not mix).
final class CallLedger: Sendable {
    struct Counts: Equatable {
        var starts = 0
        var frames = 0
        var finishes = 0
        var callsAfterFinish = 0
    }

    static let shared = CallLedger()
    private let counts = Mutex<[String: Counts]>([:])

    func record(_ analyzer: String, _ change: (inout Counts) -> Void) { counts.withLock { change(&$0[analyzer, default: Counts()]) } }

    /// Resets `analyzer`'s counts, runs `body`, and returns the counts it left.
    func measure(_ analyzer: String, _ body: () throws -> Void) rethrows -> Counts {
        counts.withLock { $0[analyzer] = Counts() }
        try body()
        return counts.withLock { $0[analyzer] ?? Counts() }
    }
}
