import LumaAnalysis
/// The knobs of a synthetic recording: frame size, timing, seed and sensor noise.
///
/// Every setting has a default, so `SceneSettings()` is a valid 640×360, 30 fps, 5-second clip.
/// Scene content (where balls are thrown, how objects move, the background texture) is not a
/// setting: it is drawn from `seed`, so the same settings always give the same scene and another
/// seed gives another, equally valid one.
///
/// Scene geometry is laid out in fractions of the frame, and motion in seconds, so changing
/// `width`/`height` rescales the same scene and changing `framesPerSecond` samples the same motion
/// more or less often.
public struct SceneSettings: Sendable, Equatable {
    /// Frame width in pixels, 16...16384.
    public var width: Int
    /// Frame height in pixels, 16...16384.
    public var height: Int
    /// Frames per second of the recording, 1...1000. Frame `i` is taken at `i / framesPerSecond`
    /// seconds.
    public var framesPerSecond: Int
    /// Number of frames, 1...1_000_000.
    public var frameCount: Int
    /// Selects the scene content. Any value is valid.
    public var seed: UInt64
    /// Standard deviation of the per-pixel sensor noise in grey levels, 0...64 (0 = noiseless).
    public var noise: Double

    /// Allowed ranges, shared by validation and its error messages.
    public static let sizeRange = 16...16384
    public static let framesPerSecondRange = 1...1000
    public static let frameCountRange = 1...1_000_000
    public static let noiseRange = 0.0...64.0

    public init(
        width: Int = 640, height: Int = 360, framesPerSecond: Int = 30, frameCount: Int = 150,
        seed: UInt64 = 1, noise: Double = 2.0
    ) {
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.frameCount = frameCount
        self.seed = seed
        self.noise = noise
    }

    /// Duration of the recording in seconds (`frameCount / framesPerSecond`).
    public var duration: Double { Double(frameCount) / Double(framesPerSecond) }

    /// Throws an `OptionError` naming the first setting outside its range (its `option` is the
    /// `SceneSettings` property, e.g. `width`).
    public func validate() throws(OptionError) {
        try Self.check("width", width, Self.sizeRange)
        try Self.check("height", height, Self.sizeRange)
        try Self.check("framesPerSecond", framesPerSecond, Self.framesPerSecondRange)
        try Self.check("frameCount", frameCount, Self.frameCountRange)
        guard noise.isFinite, Self.noiseRange.contains(noise) else {
            throw OptionError(option: "noise", .outOfRange(value: "\(noise)", allowed: "\(Self.noiseRange) grey levels"))
        }
    }

    private static func check(_ name: String, _ value: Int, _ range: ClosedRange<Int>) throws(OptionError) {
        guard range.contains(value) else {
            throw OptionError(option: name, .outOfRange(value: "\(value)", allowed: "\(range)"))
        }
    }
}
