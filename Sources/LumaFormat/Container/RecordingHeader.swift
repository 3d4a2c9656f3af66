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
    /// residuals (`BlockResidual`); its file structure is version 2's.
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
    public var problem: HeaderProblem? {
        let limit = RecordingHeader.maximumDimension
        if width < 1 || width > limit || height < 1 || height > limit { return .frameSize(width: width, height: height, limit: limit) }
        if timescale < 1 || timescale > 1_000_000_000_000 { return .timescale(timescale) }
        if rateNumerator < 0 || rateDenominator < 0 || (rateNumerator > 0 && rateDenominator == 0) {
            return .frameRate(numerator: rateNumerator, denominator: rateDenominator)
        }
        if metadata.count > RecordingHeader.maximumMetadataEntries {
            return .metadataEntries(metadata.count, limit: RecordingHeader.maximumMetadataEntries)
        }
        // Sorted, so that of several long entries the same one is named every time.
        for (k, v) in metadata.sorted(by: { $0.key < $1.key })
        where k.utf8.count > RecordingHeader.maximumMetadataString || v.utf8.count > RecordingHeader.maximumMetadataString {
            return .metadataEntryTooLong(key: String(k.prefix(40)), limit: RecordingHeader.maximumMetadataString)
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
        let version: Int
        do throws(FieldError) { version = Int(try r.u16()) } catch { throw .invalidHeader(path: path, problem: .field(error)) }
        // A version this build does not read has fields of unknown meaning: stop at the version.
        guard readableVersions.contains(version) else { throw .unsupportedVersion(path: path, version: version) }
        let header: RecordingHeader
        do throws(FieldError) { header = try fieldsAfterVersion(&r) } catch { throw .invalidHeader(path: path, problem: .field(error)) }
        if let problem = header.problem { throw .invalidHeader(path: path, problem: problem) }
        return (header, version)
    }

    /// Reads the fields after the version in order; a field impossible to read, or a value refused
    /// before more is read (the pixel format, the metadata count), is a ``FieldError``.
    private static func fieldsAfterVersion(_ r: inout ByteReader) throws(FieldError) -> RecordingHeader {
        _ = try r.u16()
        let width = Int(try r.u32())
        let height = Int(try r.u32())
        let format = try r.u8()
        guard format == PixelFormat.gray8.rawValue else { throw FieldError(offset: r.offset - 1, wanted: 1, .pixelFormat(format)) }
        _ = try r.raw(3)
        let timescale = try r.i64()
        let num = Int(try r.u32())
        let den = Int(try r.u32())
        let count = Int(try r.u32())
        guard count <= maximumMetadataEntries else {
            throw FieldError(offset: r.offset - 4, wanted: 4, .metadataEntries(count, limit: maximumMetadataEntries))
        }
        var metadata: [String: String] = [:]
        for _ in 0..<count {
            let k = try r.string(limit: maximumMetadataString)
            metadata[k] = try r.string(limit: maximumMetadataString)
        }
        return RecordingHeader(width: width, height: height, timescale: timescale, rateNumerator: num, rateDenominator: den, metadata: metadata)
    }
}

/// Pixel formats a recording can hold. Versions 1 and 2 have exactly one.
public enum PixelFormat: UInt8, Sendable {
    /// 8-bit luma, one byte per pixel.
    case gray8 = 0
}
