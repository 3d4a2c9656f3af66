/// An 8-bit RGB picture, 3 bytes per pixel, top row first: what overlays are drawn on.
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    /// A colour, 8 bits per channel.
    public struct Color: Sendable, Equatable, Hashable {
        public var r: UInt8
        public var g: UInt8
        public var b: UInt8
        public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
            self.r = r
            self.g = g
            self.b = b
        }
        /// The Apple samples' colours: detected trajectory points, projected paths, regions of interest.
        public static let detected = Color(255, 45, 45)
        public static let projected = Color(40, 220, 70)
        public static let regionOfInterest = Color(60, 130, 255)
        public static let rectangle = Color(230, 60, 230)
        public static let blob = Color(250, 210, 40)
        public static let white = Color(255, 255, 255)
        public static let black = Color(0, 0, 0)
        /// Distinct colours for tracks, by ordinal.
        public static let tracks: [Color] = [
            Color(255, 160, 0), Color(0, 200, 255), Color(255, 90, 200), Color(140, 255, 60),
            Color(255, 255, 80), Color(160, 110, 255), Color(0, 255, 170), Color(255, 120, 120),
        ]
    }

    /// A black picture.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "an image has at least one pixel")
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
    }

    /// A picture of `rgb`'s pixels (3 bytes each, `width × height`, top row first).
    public init(width: Int, height: Int, rgb: [UInt8]) {
        precondition(width > 0 && height > 0, "an image has at least one pixel")
        precondition(rgb.count == width * height * 3, "rgb holds width × height × 3 bytes")
        self.width = width
        self.height = height
        pixels = rgb
    }

    /// A grey picture from luma bytes (`width × height`, top row first).
    public init(luma: UnsafeBufferPointer<UInt8>, width: Int, height: Int) {
        precondition(luma.count == width * height, "luma holds width × height bytes")
        self.width = width
        self.height = height
        pixels = [UInt8](unsafeUninitializedCapacity: width * height * 3) { out, count in
            for i in 0..<(width * height) {
                let v = luma[i]
                out[3 * i] = v
                out[3 * i + 1] = v
                out[3 * i + 2] = v
            }
            count = width * height * 3
        }
    }

    /// The colour at (`x`, `y`), pixel coordinates from the top left.
    public subscript(x: Int, y: Int) -> Color {
        let i = 3 * (y * width + x)
        return Color(pixels[i], pixels[i + 1], pixels[i + 2])
    }

    /// Paints one pixel; points outside the picture are ignored.
    @inlinable
    public mutating func plot(_ x: Int, _ y: Int, _ color: Color) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = 3 * (y * width + x)
        pixels[i] = color.r
        pixels[i + 1] = color.g
        pixels[i + 2] = color.b
    }

    /// Copies `image` with its top-left corner at (`x`, `y`), clipped to this picture.
    public mutating func paste(_ image: RGBImage, x: Int, y: Int) {
        for row in 0..<image.height where y + row >= 0 && y + row < height {
            let x0 = max(0, x), x1 = min(width, x + image.width)
            guard x0 < x1 else { continue }
            let src = 3 * (row * image.width + (x0 - x)), dst = 3 * ((y + row) * width + x0)
            pixels.replaceSubrange(dst..<(dst + 3 * (x1 - x0)), with: image.pixels[src..<(src + 3 * (x1 - x0))])
        }
    }

    /// This picture shrunk by an integer `factor` (box average), for contact sheets.
    public func shrunk(by factor: Int) -> RGBImage {
        guard factor > 1 else { return self }
        var out = RGBImage(width: max(1, width / factor), height: max(1, height / factor))
        let n = factor * factor
        for y in 0..<out.height {
            for x in 0..<out.width {
                var sum = (0, 0, 0)
                for dy in 0..<factor {
                    let row = 3 * ((y * factor + dy) * width + x * factor)
                    for dx in 0..<factor {
                        sum.0 += Int(pixels[row + 3 * dx])
                        sum.1 += Int(pixels[row + 3 * dx + 1])
                        sum.2 += Int(pixels[row + 3 * dx + 2])
                    }
                }
                out.plot(x, y, Color(UInt8((sum.0 + n / 2) / n), UInt8((sum.1 + n / 2) / n), UInt8((sum.2 + n / 2) / n)))
            }
        }
        return out
    }
}
