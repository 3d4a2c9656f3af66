/// A background model for finding small moving things in a fixed-camera view: what each pixel
/// shows when nothing passes in front of it.
///
/// Each pixel's background is a running average, `B += (frame − B) / 2^learningShift`, kept in 8.8
/// fixed point so it is exact and identical on every machine. Two rules keep it clean:
///
/// - **Selective update.** Pixels the caller marks as foreground (something is passing) are not
///   blended in, so a ball flying across leaves no smear in the model and hence no ghost behind
///   it in the next frames.
/// - **Settling.** A pixel that has been foreground and held still (within `stillness` grey
///   levels from frame to frame) for `settleFrames` frames in a row *is* background now: a ball that came
///   to rest, or the hole left where something stood in the first frame. It is copied into the
///   model at once.
///
/// Differences are taken against the rounded model, so the difference of a static pixel is
/// sensor noise shrunk by the averaging, not the noise of two frames.
public struct AdaptiveBackground: Sendable {
    public let width: Int
    public let height: Int
    /// The running average blends `1 / 2^learningShift` of each new frame (1...8).
    public let learningShift: Int
    /// Frames a foreground pixel must hold still before it becomes background (1...255).
    public let settleFrames: Int
    private var model: [UInt16]
    private var stillFrames: [UInt8]

    /// Starts the model at `frame` (`width × height` bytes).
    public init(first frame: UnsafeBufferPointer<UInt8>, width: Int, height: Int, learningShift: Int = 4, settleFrames: Int = 15) {
        precondition(frame.count >= width * height, "the frame holds width × height bytes")
        precondition((1...8).contains(learningShift) && (1...255).contains(settleFrames), "learningShift 1...8, settleFrames 1...255")
        self.width = width
        self.height = height
        self.learningShift = learningShift
        self.settleFrames = settleFrames
        model = (0..<(width * height)).map { UInt16(frame[$0]) << 8 }
        stillFrames = [UInt8](repeating: 0, count: width * height)
    }

    /// `difference[i] = |frame[i] − round(B[i])|` for every pixel.
    public func difference(_ frame: UnsafeBufferPointer<UInt8>, into difference: UnsafeMutableBufferPointer<UInt8>) {
        let n = width * height
        precondition(frame.count >= n && difference.count >= n, "planes hold width × height bytes")
        guard n > 0 else { return }
        model.withUnsafeBufferPointer { m in
            let f = frame.baseAddress!, d = difference.baseAddress!, b = m.baseAddress!
            for i in 0..<n {
                let background = UInt8(truncatingIfNeeded: (b[i] &+ 128) >> 8)
                let value = f[i]
                d[i] = value > background ? value &- background : background &- value
            }
        }
    }

    /// Blends `frame` into the model where `foreground` is 0, and settles foreground pixels that
    /// have differed from `previous` by at most `stillness` for `settleFrames` frames in a row.
    public mutating func update(with frame: UnsafeBufferPointer<UInt8>, previous: UnsafeBufferPointer<UInt8>,
                                foreground: UnsafeBufferPointer<UInt8>, stillness: UInt8) {
        let n = width * height
        precondition(frame.count >= n && previous.count >= n && foreground.count >= n, "planes hold width × height bytes")
        guard n > 0 else { return }
        let shift = UInt16(learningShift)
        let up = UInt16(8 - learningShift)
        let settle = UInt8(settleFrames)
        model.withUnsafeMutableBufferPointer { m in
            stillFrames.withUnsafeMutableBufferPointer { s in
                let b = m.baseAddress!, still = s.baseAddress!
                let f = frame.baseAddress!, p = previous.baseAddress!, fg = foreground.baseAddress!
                // Branch-free and in 16 bits throughout, so the compiler can vectorize it.
                // (`&>>`/`&<<` shift without the overshift checks that would stop vectorization.)
                for i in 0..<n {
                    let value = f[i], before = p[i], isForeground = fg[i] != 0
                    let change = value > before ? value &- before : before &- value
                    let still1: UInt8 = change <= stillness ? 1 : 0
                    let still2: UInt8 = isForeground ? 1 : 0
                    let next: UInt8 = still[i] == 255 ? 255 : still[i] &+ 1
                    let count: UInt8 = still1 & still2 != 0 ? next : 0
                    still[i] = count
                    let current = b[i]
                    // B + (frame·256 − B) / 2^shift, as B − B / 2^shift + frame · 2^(8 − shift): never
                    // overflows 16 bits.
                    let blended = current &- (current &>> shift) &+ (UInt16(value) &<< up)
                    let settled = count >= settle ? UInt16(value) &<< 8 : current
                    b[i] = isForeground ? settled : blended
                }
            }
        }
    }

    /// The model rounded to 8-bit luma (for debugging and tests).
    public func rounded() -> [UInt8] { model.map { UInt8(truncatingIfNeeded: ($0 &+ 128) >> 8) } }
}
