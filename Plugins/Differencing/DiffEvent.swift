import LumaAnalysis

/// The `diff` event: what the differencer saw in one analyzed frame, inside the region of interest.
public struct DiffEvent: EventPayload, Equatable {
    public static let kind = "diff"
    public static let version = 1
    public static let shape: EventShape? = .blobs

    /// Fraction of region pixels whose difference is above the threshold.
    public var changedFraction: Double
    /// Mean absolute difference over the region, grey levels.
    public var meanAbsoluteDifference: Double
    /// Connected regions of changed pixels, largest first.
    public var blobs: [Blob]

    /// A motion blob, in normalized coordinates with Vision's lower-left origin.
    public struct Blob: Codable, Sendable, Equatable {
        /// `[x, y, width, height]`, (x, y) = lower-left corner.
        public var boundingBox: [Double]
        /// `[x, y]`.
        public var centroid: [Double]
        /// Area as a fraction of the frame.
        public var area: Double
        /// Area in pixels.
        public var pixels: Int
        /// Radius of the disc of equal area, as a fraction of the frame width.
        public var radius: Double
    }
}
