import Synchronization

/// Reads a program's output to its end, line by line, on a worker thread of its own: what a
/// program says on standard error while Lumatrace is busy with its other pipe (ffmpeg's frames),
/// so the program never stops on a full pipe nobody reads.
///
///     let errors = LineReader(running.standardError!, thread: "ffmpeg stderr") { line in keep(line) }
///     …
///     errors.waitForEnd()   // the program has closed it: every line has been handed over
public final class LineReader: Sendable {
    /// The reader, until someone waits for its end.
    private let reader: Mutex<WorkerThread?>

    /// Starts reading `pipe` on a worker thread named `thread`, handing each line, without its
    /// newline, to `line` as it comes (a last line without a newline too, as UTF-8 text with
    /// invalid bytes replaced); `end` is told once the program has closed the pipe (or a read
    /// failed), after the last line.
    public init(_ pipe: ProgramPipe, thread name: String, line: @escaping @Sendable (String) -> Void, end: @escaping @Sendable () -> Void = {}) {
        reader = Mutex(WorkerThread.start(name) {
            var pending: [UInt8] = []
            let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
            defer { chunk.deallocate() }
            while let count = try? pipe.read(into: chunk), count > 0 {
                pending += chunk[..<count]
                var start = pending.startIndex
                while let newline = pending[start...].firstIndex(of: 10) {
                    line(String(decoding: pending[start..<newline], as: UTF8.self))
                    start = newline + 1
                }
                pending.removeSubrange(..<start)
            }
            if !pending.isEmpty { line(String(decoding: pending, as: UTF8.self)) }
            end()
        })
    }

    /// Waits until the program has closed the pipe (which it does as it exits) and every line has
    /// been handed over. Safe to call more than once, from any thread but the reader's.
    public func waitForEnd() {
        reader.withLock { thread in
            thread?.join()
            thread = nil
        }
    }
}
