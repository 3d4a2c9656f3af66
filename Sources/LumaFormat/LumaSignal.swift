/// What a recording's luma codes mean: the range they span and the matrix that made them from
/// colour, stored in the header's metadata beside frames that are kept exactly as decoded.
///
/// Lumatrace never converts luma. A limited-range H.264 clip (the usual "tv" range, black at 16 and
/// white at 235) is recorded with its codes as coded, whether it comes through `record clip.mp4`,
/// through a Y4M pipe, or through `ffmpeg -vf extractplanes=y`: the same source gives the same
/// frames digest by every path, and thresholds behave the same. What the codes mean is written
/// down instead (`luma.range`, `luma.matrix`, `luma.origin`), and `export` hands the range back
/// (Y4M `XCOLORRANGE`) so other tools read the frames as they were.
///
/// Only sources without a Y plane are converted: RGB and palette frames (GIF, PNG, RGB video)
/// become `Y = (77 R + 150 G + 29 B + 128) >> 8`, BT.601 weights at full range, the same formula
/// on every path.
public struct LumaSignal: Equatable, Sendable {
    /// The span of codes: `limited` (16–235 nominal, "tv", MPEG), `full` (0–255, "pc", JPEG).
    public enum Range: String, Sendable, CaseIterable {
        case limited, full, unknown
    }

    public var range: Range
    /// The YUV matrix of the source as ffmpeg names it (`bt709`, `smpte170m`, `bt470bg`, …), or
    /// `unknown`. For converted RGB it is `bt601`, the weights of the conversion.
    public var matrix: String
    /// Where the codes came from, for people: e.g. `Y plane of yuv420p`.
    public var origin: String

    public init(range: Range, matrix: String = "unknown", origin: String) {
        self.range = range
        self.matrix = matrix.isEmpty ? "unknown" : matrix
        self.origin = origin
    }

    /// The metadata keys of a recording header.
    public static let rangeKey = "luma.range"
    public static let matrixKey = "luma.matrix"
    public static let originKey = "luma.origin"

    /// The signal a header describes; `nil` for recordings made before it was recorded.
    public init?(metadata: [String: String]) {
        guard let text = metadata[Self.rangeKey] else { return nil }
        self.init(range: Range(rawValue: text) ?? .unknown, matrix: metadata[Self.matrixKey] ?? "unknown",
                  origin: metadata[Self.originKey] ?? "unknown")
    }

    /// The three metadata entries.
    public var metadata: [String: String] {
        [Self.rangeKey: range.rawValue, Self.matrixKey: matrix, Self.originKey: origin]
    }

    /// The range as ffprobe reports `color_range` (`tv`, `pc`, `unknown`). JPEG-range pixel formats
    /// (`yuvj420p`, …) are full range whatever the stream says.
    public static func range(ffprobe value: String?, pixelFormat: String) -> Range {
        if pixelFormat.hasPrefix("yuvj") { return .full }
        switch value {
        case "tv", "mpeg": return .limited
        case "pc", "jpeg": return .full
        default: return .unknown
        }
    }

    /// The range a Y4M stream declares with an `XCOLORRANGE=` extension, as ffmpeg writes it.
    public static func range(y4mExtensions extensions: [String]) -> Range {
        for tag in extensions where tag.hasPrefix("COLORRANGE=") {
            switch tag.dropFirst("COLORRANGE=".count) {
            case "LIMITED": return .limited
            case "FULL": return .full
            default: return .unknown
            }
        }
        return .unknown
    }

    /// The Y4M extension tag that declares this range (`XCOLORRANGE=LIMITED`), or `nil` when unknown.
    public var y4mTag: String? {
        switch range {
        case .limited: "XCOLORRANGE=LIMITED"
        case .full: "XCOLORRANGE=FULL"
        case .unknown: nil
        }
    }

    /// Whether frames of this ffmpeg pixel format carry no Y plane (RGB, palette, Bayer, XYZ), so
    /// ffmpeg hands them over as RGB and they are converted to luma by the documented formula.
    public static func isColourWithoutLuma(pixelFormat name: String) -> Bool {
        name == "pal8" || name.hasPrefix("bayer_") || name.hasPrefix("xyz")
            || ["rgb", "bgr", "gbr"].contains { name.contains($0) }
    }

    /// The signal of luma converted from RGB (`origin` names the source's pixel format).
    public static func convertedFromRGB(_ origin: String) -> LumaSignal {
        LumaSignal(range: .full, matrix: "bt601", origin: "\(origin) converted to luma: (77 R + 150 G + 29 B + 128) >> 8")
    }
}
