/// Little-endian field encoding for the records of a `.luma` file.
///
/// Every read is bounds-checked and throws ``FieldError`` with the offset that failed, so a damaged
/// or hostile file can never make the reader trap or read past what it was given.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: UInt16) { append(v) }
    mutating func u32(_ v: UInt32) { append(v) }
    mutating func u64(_ v: UInt64) { append(v) }
    mutating func i64(_ v: Int64) { append(UInt64(bitPattern: v)) }
    mutating func raw(_ v: some Sequence<UInt8>) { bytes.append(contentsOf: v) }
    mutating func string(_ s: String) {
        let utf8 = Array(s.utf8)
        u32(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    private mutating func append<T: FixedWidthInteger>(_ v: T) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }
}

struct ByteReader {
    let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }

    mutating func u8() throws(FieldError) -> UInt8 { try read(UInt8.self) }
    mutating func u16() throws(FieldError) -> UInt16 { try read(UInt16.self) }
    mutating func u32() throws(FieldError) -> UInt32 { try read(UInt32.self) }
    mutating func u64() throws(FieldError) -> UInt64 { try read(UInt64.self) }
    mutating func i64() throws(FieldError) -> Int64 { Int64(bitPattern: try read(UInt64.self)) }

    mutating func raw(_ count: Int) throws(FieldError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else {
            throw FieldError(offset: offset, wanted: count, .pastEnd)
        }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// A length-prefixed UTF-8 string of at most `limit` bytes.
    mutating func string(limit: Int) throws(FieldError) -> String {
        let length = Int(try u32())
        guard length <= limit else {
            throw FieldError(offset: offset - 4, wanted: length, .stringTooLong(bytes: length, limit: limit))
        }
        guard let s = String(validating: try raw(length), as: UTF8.self) else {
            throw FieldError(offset: offset - length, wanted: length, .notUTF8)
        }
        return s
    }

    private mutating func read<T: FixedWidthInteger>(_: T.Type) throws(FieldError) -> T {
        let size = MemoryLayout<T>.size
        guard remaining >= size else {
            throw FieldError(offset: offset, wanted: size, .pastEnd)
        }
        var v: T = 0
        for i in 0..<size { v |= T(bytes[offset + i]) << (8 * i) }
        offset += size
        return v
    }
}
