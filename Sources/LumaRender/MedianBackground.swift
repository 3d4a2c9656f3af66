/// The static scene behind moving things: the per-pixel median of frames sampled across a
/// recording. A thrown ball is in each place for a frame or two, so the median leaves it out.
public struct MedianBackground {
    public let width: Int
    public let height: Int
    private var samples: [[UInt8]] = []

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Adds a frame (`width × height` luma bytes).
    public mutating func add(_ luma: UnsafeBufferPointer<UInt8>) {
        precondition(luma.count == width * height, "a frame holds width × height bytes")
        samples.append(Array(luma))
    }

    /// The median of the frames added (the lower middle for an even count), as luma.
    public func median() -> [UInt8] {
        guard let first = samples.first else { return [] }
        guard samples.count > 1 else { return first }
        var out = [UInt8](repeating: 0, count: width * height)
        var histogram = [Int](repeating: 0, count: 256)
        let middle = (samples.count - 1) / 2
        for i in 0..<(width * height) {
            for k in 0..<256 { histogram[k] = 0 }
            for s in samples { histogram[Int(s[i])] += 1 }
            var seen = 0
            for v in 0..<256 {
                seen += histogram[v]
                if seen > middle {
                    out[i] = UInt8(v)
                    break
                }
            }
        }
        return out
    }
}
