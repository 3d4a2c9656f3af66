import Dispatch

/// A ``FramesDigest`` computed on a second thread, so that hashing does not slow the recording
/// thread: SHA-256 of every frame costs about as much as coding it.
///
/// ``add(ticks:pixels:)`` copies the frame into one of a few reusable buffers (a copy is a small
/// fraction of a hash) and queues it; a serial queue hashes the frames in the order they were
/// added, so the digest is the same as ``FramesDigest`` gives on one thread. When every buffer is
/// waiting to be hashed, `add` waits for the oldest: memory stays at `depth` frames however far
/// the hashing falls behind.
final class BackgroundFramesDigest: @unchecked Sendable {
    // The caller's thread writes a buffer only after the queue has signalled that it is done with
    // it (`free`), and the queue reads it only after `add` has queued it: no buffer is shared.
    private let queue = DispatchQueue(label: "lumatrace.frames-digest")
    private let free: DispatchSemaphore
    private let buffers: [UnsafeMutableBufferPointer<UInt8>]
    private var next = 0
    /// Touched on `queue` only.
    private var digest = FramesDigest()

    /// Buffers for `depth` frames of `frameSize` bytes, allocated now and never zero-filled.
    init(frameSize: Int, depth: Int = 3) {
        buffers = (0..<depth).map { _ in UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, frameSize)) }
        free = DispatchSemaphore(value: depth)
    }

    deinit {
        // Every queued block holds `self`, so none is pending here.
        for buffer in buffers { buffer.deallocate() }
    }

    /// Queues one frame (`pixels.count` ≤ the frame size given at init) for hashing.
    func add(ticks: Int64, pixels: UnsafeBufferPointer<UInt8>) {
        precondition(pixels.count <= buffers[0].count, "a frame of \(pixels.count) bytes, the digest holds \(buffers[0].count)")
        free.wait()
        let slot = next
        next = (next + 1) % buffers.count
        _ = buffers[slot].initialize(from: pixels)
        let count = pixels.count
        queue.async { [self] in
            digest.add(ticks: ticks, pixels: UnsafeBufferPointer(rebasing: buffers[slot][0..<count]))
            free.signal()
        }
    }

    /// Waits for every queued frame and returns the digest.
    func finalize() -> [UInt8] { queue.sync { digest.finalize() } }
}
