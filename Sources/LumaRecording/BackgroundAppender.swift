import Dispatch
import Foundation
import LumaFormat
import LumaProcess
import Synchronization

/// Appends frames to a ``RecordingWriter`` on a thread of its own, so the thread reading the
/// source is never held up while a chunk is compressed and written: a live camera's frames are
/// taken (and handed to the analysis) as they arrive, not after the chunk before them is on disk.
///
/// The reader fills one of a fixed set of frame buffers (``nextBuffer()``) and submits it; the
/// writer thread appends buffers in the order submitted and frees them. Free buffers are reused
/// last-freed first, so only as many are ever touched as the writer fell behind. When the writer
/// is behind by every buffer, ``nextBuffer()`` waits (a source that can wait, a pipe, does).
final class BackgroundAppender: @unchecked Sendable {
    let writer: RecordingWriter
    /// Told on the writer thread after each chunk is written: frames `0..<count` are in the file.
    let chunkWritten: (@Sendable (_ frames: Int, _ path: String) -> Void)?

    private let frameSize: Int
    private let storage: UnsafeMutableBufferPointer<UInt8>
    private let state: Mutex<State>
    private let free: DispatchSemaphore
    private let submitted = DispatchSemaphore(value: 0)
    private var thread: WorkerThread?

    private struct State {
        var freeSlots: [Int]
        var queue: [(slot: Int, ticks: Int64)?] = []  // nil: no more frames
        var head = 0
        /// The writer failed on this frame: nothing more is appended.
        var failure: (error: any Error, frame: Int)?
    }

    /// The memory the buffers may take, at least `minimumFrames` frames (a stall of a few hundred
    /// milliseconds at 1080p60 is ~30 frames, 64 MiB).
    static func slotCount(frameSize: Int, budgetBytes: Int = 64 << 20, minimumFrames: Int = 4, maximumFrames: Int = 256) -> Int {
        min(maximumFrames, max(minimumFrames, budgetBytes / max(1, frameSize)))
    }

    init(writer: RecordingWriter, chunkWritten: (@Sendable (Int, String) -> Void)?) {
        self.writer = writer
        self.chunkWritten = chunkWritten
        frameSize = writer.header.frameSize
        let slots = Self.slotCount(frameSize: frameSize)
        storage = .allocate(capacity: slots * frameSize)
        state = Mutex(State(freeSlots: Array((0..<slots).reversed())))
        free = DispatchSemaphore(value: slots)
        thread = WorkerThread.start("rec writer") { [self] in appendUntilEnd() }
    }

    deinit {
        finishThread()
        storage.deallocate()
    }

    private func slot(_ index: Int) -> UnsafeMutableBufferPointer<UInt8> {
        UnsafeMutableBufferPointer(rebasing: storage[(index * frameSize)..<((index + 1) * frameSize)])
    }

    /// A free buffer for the next frame, waiting while the writer is behind by every buffer;
    /// `nil` once the writer has failed (``failure``).
    func nextBuffer() -> (slot: Int, pixels: UnsafeMutableBufferPointer<UInt8>)? {
        free.wait()
        guard let s = state.withLock({ $0.failure == nil ? $0.freeSlots.popLast() : nil }) else {
            free.signal()  // a failed writer frees nothing more: let the next caller through too
            return nil
        }
        return (s, slot(s))
    }

    /// Hands a filled buffer to the writer.
    func submit(_ slot: Int, ticks: Int64) {
        state.withLock { $0.queue.append((slot, ticks)) }
        submitted.signal()
    }

    /// Gives back a buffer that was not filled (the source ended).
    func giveBack(_ slot: Int) {
        state.withLock { $0.freeSlots.append(slot) }
        free.signal()
    }

    /// Why the writer stopped, and at which frame, if it did.
    var failure: (error: any Error, frame: Int)? { state.withLock { $0.failure } }

    /// Waits for every submitted frame to be appended (or the writer to fail); the writer is then
    /// the caller's again, to close.
    func finish() {
        finishThread()
    }

    private func finishThread() {
        guard let thread else { return }
        state.withLock { $0.queue.append(nil) }
        submitted.signal()
        thread.join()
        self.thread = nil
    }

    private func appendUntilEnd() {
        var chunks = writer.chunks.count
        while true {
            submitted.wait()
            let next = state.withLock { s -> (slot: Int, ticks: Int64)? in
                let item = s.queue[s.head]
                s.head += 1
                if s.head > 1024 { s.queue.removeFirst(s.head); s.head = 0 }
                return item
            }
            guard let (slot, ticks) = next else { return }
            if state.withLock({ $0.failure == nil }) {
                do {
                    try writer.append(pixels: UnsafeBufferPointer(self.slot(slot)), ticks: ticks)
                } catch {
                    let frame = writer.frameCount
                    state.withLock { $0.failure = (error, frame) }
                    free.signal()  // wake a reader waiting for a buffer: it sees the failure
                }
            }
            if writer.chunks.count != chunks, let last = writer.chunks.last {
                chunks = writer.chunks.count
                chunkWritten?(last.firstFrame + last.frameCount, writer.writingPath)
            }
            state.withLock { $0.freeSlots.append(slot) }
            free.signal()
        }
    }
}
