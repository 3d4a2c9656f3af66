/// A background model: the running average `background += rate × (frame − background)` per pixel,
/// kept in 8.8 fixed point so it is exact and identical on every machine (no floating point).
public struct RunningAverage: Sendable {
    public let width: Int
    public let height: Int
    /// Learning rate in 1/256 steps (1...256).
    public let rate: Int32
    private var model: [UInt16]
    private var rounded: [UInt8]

    /// Starts the model at `frame`. `learningRate` in (0, 1] is quantized to 1/256 steps.
    public init(first frame: UnsafeBufferPointer<UInt8>, width: Int, height: Int, learningRate: Double) {
        self.width = width
        self.height = height
        rate = Int32(max(1, min(256, (learningRate * 256).rounded())))
        model = frame.map { UInt16($0) << 8 }
        rounded = Array(frame)
    }

    /// The current background as 8-bit luma (rounded).
    public func withBackground<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try rounded.withUnsafeBufferPointer(body)
    }

    /// Blends `frame` into the model over `region`.
    public mutating func update(with frame: UnsafeBufferPointer<UInt8>, region: PixelRect) {
        let r = rate
        model.withUnsafeMutableBufferPointer { m in
            rounded.withUnsafeMutableBufferPointer { out in
                for y in region.y0..<region.y1 {
                    for i in (y * width + region.x0)..<(y * width + region.x1) {
                        let current = Int32(m[i])
                        let target = Int32(frame[i]) << 8
                        let next = current + ((target - current) * r) / 256
                        m[i] = UInt16(clamping: next)
                        out[i] = UInt8(clamping: (next + 128) >> 8)
                    }
                }
            }
        }
    }
}
