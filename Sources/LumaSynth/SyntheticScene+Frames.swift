import Dispatch

extension SyntheticScene {
    /// Renders every frame, `0..<settings.frameCount`, and hands each to `body` in order, with its
    /// index and its `width × height` grey levels (valid only during the call).
    ///
    /// Frames render in parallel in batches of `batch` (rendering is pure, so the bytes are the
    /// same at any thread count), and are handed over one at a time, in frame order. An error
    /// thrown by `body` stops the loop and is rethrown.
    public func forEachFrame(batch: Int = 8, _ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        precondition(batch > 0, "a batch holds at least one frame")
        let frameSize = settings.width * settings.height
        let frames = settings.frameCount
        var buffer = [UInt8](repeating: 0, count: min(batch, frames) * frameSize)
        var start = 0
        while start < frames {
            let count = min(batch, frames - start)
            let first = start
            buffer.withUnsafeMutableBufferPointer { all in
                let shared = SharedFrameBuffer(all)
                DispatchQueue.concurrentPerform(iterations: count) { k in
                    self.render(frame: first + k, into: UnsafeMutableBufferPointer(rebasing: shared.buffer[(k * frameSize)..<((k + 1) * frameSize)]))
                }
            }
            for k in 0..<count {
                try buffer.withUnsafeBufferPointer { all in
                    try body(first + k, UnsafeBufferPointer(rebasing: all[(k * frameSize)..<((k + 1) * frameSize)]))
                }
            }
            start += count
        }
    }
}

/// Lets concurrent renderers write disjoint slices of one buffer.
private struct SharedFrameBuffer: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }
}
