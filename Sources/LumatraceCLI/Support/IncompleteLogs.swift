import LumaAnalysis
import LumaEngine

extension EventLog {
    /// What is missing from a log that did not finish, or `nil` for a complete log: no footer (the
    /// replay was killed, or is still running), or a footer that records an analyzer's failure.
    var incompleteness: String? {
        if isComplete { return nil }
        guard let end else {
            return "\(path) has no footer: its replay was killed or has not finished, so it holds only the events up to frame \(events.last?.frame ?? header.firstFrame)"
        }
        if let failure = end.failure {
            return "\(path) is incomplete: its replay stopped when analyzer \(failure.analyzer) failed at frame \(failure.frame) (\(failure.message))"
        }
        return "\(path) is incomplete: its footer says the replay did not complete"
    }

    /// Says on stderr, once, that results from this log cover only what it holds (after the
    /// results, so a command that fails prints only its error).
    func warnIfIncomplete() {
        if let incompleteness { warn("warning: \(incompleteness); results cover only what it holds") }
    }
}
