import Foundation
import LumaBase
import Synchronization

/// A progress bar on stderr with frames/s and time left, drawn only when stderr is a terminal.
/// Wall-clock time appears here and nowhere else: it never reaches an event log.
final class ProgressBar: Sendable {
    private let label: String
    private let enabled: Bool
    private let start = Date()
    /// When the bar was last drawn: drawing is throttled to 10 times a second.
    private let lastDraw = Mutex(Date.distantPast)

    init(_ label: String) {
        self.label = label
        enabled = isatty(2) != 0
    }

    func update(_ done: Int, _ total: Int) {
        guard enabled else { return }
        let now = Date()
        let due = lastDraw.withLock { last in
            guard done == total || now.timeIntervalSince(last) > 0.1 else { return false }
            last = now
            return true
        }
        guard due else { return }
        let elapsed = max(now.timeIntervalSince(start), 1e-6)
        let rate = Double(done) / elapsed
        let width = 30
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 0
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        var line = "\r\(label) \(bar) \(done)/\(total > 0 ? String(total) : "?") frames  \(DecimalText.fixed(rate, 0)) frames/s"
        if total > 0 && rate > 0 && done < total { line += "  \(DecimalText.fixed(Double(total - done) / rate, 0)) s left" }
        FileHandle.standardError.write(Data((line + "   ").utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
