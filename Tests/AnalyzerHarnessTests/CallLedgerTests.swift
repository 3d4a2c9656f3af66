@testable import AnalyzerHarness
import DifferencingAnalyzer
import LumaAnalysis
import LumaTestSupport
import Testing

/// The conformance check's call counts (``CallLedger``) are per probed replay: two checks of the
/// same analyzer at once, in tests running in parallel, must not count each other's calls.
@Suite("Call counts belong to one probed replay")
struct CallLedgerTests {
    @Test("a probed replay of the same analyzer made while another is measured is not in its counts")
    func sameAnalyzerApart() throws {
        let harness = AnalyzerHarness(DifferencingAnalyzer.self)
        let frames = (0..<4).map { i in HarnessFrame(width: 32, height: 24, pixels: [UInt8](repeating: UInt8(40 * i), count: 32 * 24)) }
        try harness.withRecording(of: frames) { path in
            var inner = CallLedger.Counts()
            let outer = try CallLedger.shared.measure { run in
                _ = try harness.log(recording: path, probedAs: run)
                // Another check of the same analyzer, as a test running in parallel would make it.
                inner = try CallLedger.shared.measure { other in _ = try harness.log(recording: path, probedAs: other) }
            }
            let once = CallLedger.Counts(starts: 1, frames: frames.count, finishes: 1, callsAfterFinish: 0)
            #expect(outer == once)
            #expect(inner == once)
        }
    }
}
