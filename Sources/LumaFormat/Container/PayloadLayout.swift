/// How a chunk's payload is laid out once decompressed: it depends on the format version and on the
/// frame's width and height.
///
/// - Versions 1 and 2: the masks (``MaskedResidual``, one bit per pixel) of the frames not stored
///   whole, then each frame's residual bytes in order: the non-zero ones, or every byte of a frame
///   stored whole.
/// - Version 3: every frame's block modes, then every frame's low nibbles, then every frame's
///   high-nibble mask, then the non-zero high nibbles of each frame in order (``BlockResidual``).
struct PayloadLayout: Equatable, Sendable {
    let version: Int
    let width: Int
    let height: Int

    init(version: Int, width: Int, height: Int) {
        self.version = version
        self.width = width
        self.height = height
    }

    init(_ header: RecordingHeader, version: Int) { self.init(version: version, width: header.width, height: header.height) }

    var frameSize: Int { width * height }
    /// Whether frames are coded in predicted blocks with nibble-split residuals (version 3).
    var usesBlocks: Bool { version >= 3 }
    /// Bytes of one frame's mask: of its non-zero residuals (versions 1, 2) or high nibbles (3).
    var maskSize: Int { MaskedResidual.maskSize(frameSize) }
    /// Version 3: bytes of one frame's block modes and of its low nibbles.
    var modeSize: Int { BlockResidual.modeCount(width: width, height: height) }
    var lowSize: Int { BlockResidual.lowSize(frameSize) }

    /// The bytes every frame of a chunk has before its variable part (modes, low nibbles, mask),
    /// for a frame not stored whole.
    var fixedSize: Int { usesBlocks ? modeSize + lowSize + maskSize : maskSize }

    /// The raw lengths possible for `count` frames of which `whole` are stored whole.
    func rawLengths(frames count: Int, whole: Int) -> ClosedRange<UInt64> {
        let fixed = UInt64(count - whole) * UInt64(fixedSize)
        let least = fixed + UInt64(whole) * UInt64(frameSize)
        return least...(fixed + UInt64(count) * UInt64(frameSize))
    }
}
