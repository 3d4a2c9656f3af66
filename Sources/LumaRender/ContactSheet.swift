import LumaImaging

/// A grid of frames, each shrunk to fit a sheet about 1600 pixels wide, labelled with its number.
public struct ContactSheet: Sendable {
    public let columns: Int
    public let rows: Int
    /// Each frame is shrunk by this integer factor.
    public let factor: Int
    public let tileWidth: Int
    public let tileHeight: Int
    static let gap = 4

    public init(frameWidth: Int, frameHeight: Int, count: Int, columns: Int, maximumWidth: Int = 1600) {
        self.columns = max(1, min(columns, count))
        rows = max(1, (count + self.columns - 1) / self.columns)
        // The same rule as every other shrink in Lumatrace: the smallest whole factor that fits.
        factor = Downsample.factor(shrinking: frameWidth * self.columns, toAtMost: maximumWidth)
        tileWidth = max(1, frameWidth / factor)
        tileHeight = max(1, frameHeight / factor)
    }

    /// The empty sheet (dark grey).
    public func canvas() -> RGBImage {
        var image = RGBImage(width: columns * (tileWidth + Self.gap) + Self.gap, height: rows * (tileHeight + Self.gap) + Self.gap)
        image.fillBox(0, 0, image.width, image.height, RGBImage.Color(32, 32, 32))
        return image
    }

    /// Places a drawn frame in tile `tile` (row by row) with `label` in its top-left corner.
    public func place(_ frame: RGBImage, label: String, tile: Int, on sheet: inout RGBImage) {
        let x = Self.gap + (tile % columns) * (tileWidth + Self.gap), y = Self.gap + (tile / columns) * (tileHeight + Self.gap)
        sheet.paste(frame.shrunk(by: factor), x: x, y: y)
        sheet.text(label, x: x + 3, y: y + 3, .white, scale: max(1, tileWidth / 200))
    }
}
