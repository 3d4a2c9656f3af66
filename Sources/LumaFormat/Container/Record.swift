/// The envelope every record of a `.luma` file shares, so a reader that has lost its place (no
/// index, a damaged chunk) can find the next record and check it before believing it:
///
/// ```
/// magic        4 bytes   "LUMA" file header · "LREF" reference frame · "LCHK" chunk · "LIDX" index
/// fieldsLength u32       bytes of fields (≤ 64 MiB)
/// payloadLength u64      bytes of payload after the checksum (a zstd frame, or 0)
/// fields       ...       the record's own fields, little-endian
/// crc          u32       CRC-32 of magic, both lengths and the fields
/// payload      ...
/// ```
///
/// The file ends with a fixed-size ``Trailer`` pointing at the index record. Records follow each
/// other in this order (version 2; see ``RecordingWriter`` for version 1):
///
/// ```
/// LUMA header · LREF reference copy 0 · LCHK chunk 0 · LUMA header copy · LREF reference copy 1 ·
/// LCHK chunk 1 · … · LIDX index · trailer
/// ```
///
/// The copies after chunk 0 are byte-identical to the first ones (but for the copy number), so a
/// reader whose header or reference at the start is damaged reads them instead, and `recover`
/// writes them back.
enum RecordKind: String, CaseIterable, Sendable {
    case header = "LUMA"
    case reference = "LREF"
    case chunk = "LCHK"
    case index = "LIDX"

    var magic: [UInt8] { Array(rawValue.utf8) }

    init?(magic: ArraySlice<UInt8>) {
        guard let kind = RecordKind.allCases.first(where: { $0.magic.elementsEqual(magic) }) else { return nil }
        self = kind
    }
}

enum RecordLayout {
    /// magic + fieldsLength + payloadLength
    static let prefixSize = 16
    static let crcSize = 4
    static let maximumFieldsLength = 64 << 20

    /// The bytes of a record up to and including its CRC; the payload follows separately.
    static func envelope(_ kind: RecordKind, fields: [UInt8], payloadLength: Int) -> [UInt8] {
        var w = ByteWriter(capacity: prefixSize + fields.count + crcSize)
        w.raw(kind.magic)
        w.u32(UInt32(fields.count))
        w.u64(UInt64(payloadLength))
        w.raw(fields)
        let crc = CRC32.of(w.bytes)
        w.u32(crc)
        return w.bytes
    }
}

/// A record whose envelope has been read and checked, with its payload still on disk.
struct RecordLocation: Equatable, Sendable {
    var kind: RecordKind
    /// File offset of the magic.
    var offset: UInt64
    var fields: [UInt8]
    var payloadOffset: UInt64
    var payloadLength: UInt64
    /// Offset just past the payload: where the next record starts.
    var end: UInt64 { payloadOffset + payloadLength }
}

/// The fixed-size last bytes of a closed recording: where the index record starts.
///
/// ```
/// "LTRL"  index offset u64  CRC-32 of the previous 12 bytes u32  "LEND"
/// ```
enum Trailer {
    static let size = 20

    static func bytes(indexOffset: UInt64) -> [UInt8] {
        var w = ByteWriter(capacity: size)
        w.raw(Array("LTRL".utf8))
        w.u64(indexOffset)
        w.u32(CRC32.of(w.bytes))
        w.raw(Array("LEND".utf8))
        return w.bytes
    }

    /// The index offset, or `nil` if these bytes are not an intact trailer.
    static func indexOffset(from bytes: [UInt8]) -> UInt64? {
        guard bytes.count == size, bytes[0..<4].elementsEqual("LTRL".utf8), bytes[16..<20].elementsEqual("LEND".utf8) else { return nil }
        var r = ByteReader(bytes, offset: 4)
        guard let offset = try? r.u64(), let crc = try? r.u32(), crc == CRC32.of(Array(bytes[0..<12])) else { return nil }
        return offset
    }
}
