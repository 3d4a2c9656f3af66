/// What a recording is: frame size, pixel format, time base and a few descriptive strings.
///
/// Stored at the start of a `.luma` file (and, from version 2, again after the first chunk). Frames
/// are always 8-bit luma (`gray8`), row-major, top row first, `width × height` bytes with no padding.
public struct RecordingHeader: Equatable, Sendable {
    /// The `.luma` format version this build writes by default.
    ///
    /// Version 2 keeps a second copy of the header and of the reference frame right after the first
    /// chunk, far from the first copies, so no single damaged region loses more than the chunks it
    /// touches. Version 1 keeps both reference copies side by side and the header once.
    ///
    /// Version 3 codes frames in 16×16 blocks that each choose their predictor, with nibble-split
    /// residuals (``BlockResidual``); its file structure is version 2's.
    public static let formatVersion = 3
    /// The versions this build reads.
    public static let readableVersions: ClosedRange<Int> = 1...3
    /// Largest width or height accepted, so no declared size can be absurd.
    public static let maximumDimension = 16384

    public var width: Int
    public var height: Int
    /// Ticks per second of every frame timestamp (e.g. 90000, or 1_000_000_000).
    public var timescale: Int64
    /// The nominal frame rate as a fraction (`rateNumerator / rateDenominator` frames per second).
    /// Informational: timing comes from each frame's own timestamp.
    public var rateNumerator: Int
    public var rateDenominator: Int
    /// Free-form descriptive strings (source, camera, notes). Stored sorted by key.
    public var metadata: [String: String]

    public init(width: Int, height: Int, timescale: Int64, rateNumerator: Int, rateDenominator: Int = 1,
                metadata: [String: String] = [:]) {
        self.width = width
        self.height = height
        self.timescale = timescale
        self.rateNumerator = rateNumerator
        self.rateDenominator = rateDenominator
        self.metadata = metadata
    }

    /// Bytes in one frame.
    public var frameSize: Int { width * height }

    /// Nominal frames per second, or 0 when unknown.
    public var nominalFrameRate: Double {
        rateDenominator > 0 ? Double(rateNumerator) / Double(rateDenominator) : 0
    }

    /// Why this header cannot describe a recording, or `nil` when it can.
    public var problem: String? {
        let limit = RecordingHeader.maximumDimension
        if width < 1 || width > limit || height < 1 || height > limit {
            return "frame size \(width)x\(height) is outside 1...\(limit) in each dimension"
        }
        if timescale < 1 || timescale > 1_000_000_000_000 { return "timescale \(timescale) is outside 1...10^12 ticks per second" }
        if rateNumerator < 0 || rateDenominator < 0 || (rateNumerator > 0 && rateDenominator == 0) {
            return "nominal frame rate \(rateNumerator)/\(rateDenominator) is not a valid fraction"
        }
        if metadata.count > RecordingHeader.maximumMetadataEntries {
            return "\(metadata.count) metadata entries is over the limit of \(RecordingHeader.maximumMetadataEntries)"
        }
        for (k, v) in metadata where k.utf8.count > RecordingHeader.maximumMetadataString || v.utf8.count > RecordingHeader.maximumMetadataString {
            return "metadata entry '\(k.prefix(40))' is over \(RecordingHeader.maximumMetadataString) bytes"
        }
        return nil
    }

    static let maximumMetadataEntries = 256
    static let maximumMetadataString = 65536

    // MARK: - Fields

    func serializedFields(version: Int = formatVersion) -> [UInt8] {
        var w = ByteWriter()
        w.u16(UInt16(version))
        w.u16(0)  // flags, reserved
        w.u32(UInt32(width))
        w.u32(UInt32(height))
        w.u8(PixelFormat.gray8.rawValue)
        w.raw([0, 0, 0])
        w.i64(timescale)
        w.u32(UInt32(rateNumerator))
        w.u32(UInt32(rateDenominator))
        w.u32(UInt32(metadata.count))
        for key in metadata.keys.sorted() {
            w.string(key)
            w.string(metadata[key]!)
        }
        return w.bytes
    }

    /// Parses the header fields, checking every declared value before it is used. Returns the
    /// header and the format version the fields declare.
    static func deserialize(fields: [UInt8], path: String) throws(LumaFormatError) -> (header: RecordingHeader, version: Int) {
        var r = ByteReader(fields)
        do {
            let version = Int(try r.u16())
            guard readableVersions.contains(version) else { throw LumaFormatError.unsupportedVersion(path: path, version: version) }
            _ = try r.u16()
            let width = Int(try r.u32())
            let height = Int(try r.u32())
            let format = try r.u8()
            guard format == PixelFormat.gray8.rawValue else {
                throw LumaFormatError.invalidHeader(path: path, reason: "pixel format \(format) is unknown (only gray8 = 0 exists)")
            }
            _ = try r.raw(3)
            let timescale = try r.i64()
            let num = Int(try r.u32())
            let den = Int(try r.u32())
            let count = Int(try r.u32())
            guard count <= maximumMetadataEntries else {
                throw LumaFormatError.invalidHeader(path: path, reason: "\(count) metadata entries is over the limit of \(maximumMetadataEntries)")
            }
            var metadata: [String: String] = [:]
            for _ in 0..<count {
                let k = try r.string(limit: maximumMetadataString)
                metadata[k] = try r.string(limit: maximumMetadataString)
            }
            let header = RecordingHeader(width: width, height: height, timescale: timescale,
                                         rateNumerator: num, rateDenominator: den, metadata: metadata)
            if let problem = header.problem { throw LumaFormatError.invalidHeader(path: path, reason: problem) }
            return (header, version)
        } catch let e as FieldError {
            throw LumaFormatError.invalidHeader(path: path, reason: "\(e.reason) at field offset \(e.offset)")
        } catch let e as LumaFormatError {
            throw e
        } catch {
            throw LumaFormatError.invalidHeader(path: path, reason: "\(error)")
        }
    }
}

/// Pixel formats a recording can hold. Versions 1 and 2 have exactly one.
public enum PixelFormat: UInt8, Sendable {
    /// 8-bit luma, one byte per pixel.
    case gray8 = 0
}
