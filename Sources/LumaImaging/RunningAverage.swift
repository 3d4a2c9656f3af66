/// A background model: the running average `background += rate × (frame − background)` per pixel,
/// kept in 8.8 fixed point so it is exact and identical on every machine (no floating point).
public struct RunningAverage: Sendable {
    public let width: Int
    public let height: Int
    /// Learning rate in 1/256 steps (1...256).
    public let rate: Int32
    private var model: [UInt16]
    private var rounded: [UInt8]

    /// Starts the model at `frame`, of its size. `learningRate` in (0, 1] is quantized to 1/256 steps.
    public init(first frame: GrayImage, learningRate: Double) {
        width = frame.width
        height = frame.height
        rate = Int32(max(1, min(256, (learningRate * 256).rounded())))
        model = frame.pixels.map { UInt16($0) << 8 }
        rounded = Array(frame.pixels)
    }

    /// The current background as 8-bit luma (rounded).
    public func withBackground<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try rounded.withUnsafeBufferPointer(body)
    }

    /// Blends `frame` (of the model's size) into the model over `region`.
    public mutating func update(with image: GrayImage, region: PixelRect) {
        precondition(image.width == width && image.height == height, "the frame has the model's size")
        let frame = image.pixels
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
