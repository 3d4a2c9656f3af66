/// Finds the next intact record of some kinds after a position, in a file whose structure cannot
/// be trusted there (damage, a crash, a hostile file).
///
/// Reads in blocks that start small and double (up to 1 MiB), so the cost follows the distance to
/// the next candidate: a hostile file packed with near-miss records costs a few KiB per record, not
/// a megabyte each. A magic is believed only when the whole record envelope checks out (its CRC).
enum RecordSearch {
    /// The first record of one of `kinds` starting after `position` and before `limit` whose
    /// envelope is intact and for which `accept` holds, or `nil`.
    static func next(in file: any ByteSource, fileSize: UInt64, after position: UInt64, kinds: Set<RecordKind>,
                     before limit: UInt64? = nil, accept: (RecordLocation) -> Bool = { _ in true }) -> RecordLocation? {
        let end = min(fileSize, limit ?? fileSize)
        let magics = kinds.map(\.magic)
        let firstBytes = Set(magics.map { $0[0] })
        var block = 4096
        var offset = position + 1
        while offset < end {
            let count = Int(min(UInt64(block + 3), fileSize - offset))
            guard count >= 4, let bytes = try? file.read(at: offset, count: count) else { return nil }
            for i in 0...(count - 4) where firstBytes.contains(bytes[i]) && offset + UInt64(i) < end {
                let candidate = bytes[i..<i + 4]
                guard magics.contains(where: { candidate.elementsEqual($0) }) else { continue }
                if case .success(let r) = RecordingReader.readRecord(file, at: offset + UInt64(i), fileSize: fileSize), accept(r) {
                    return r
                }
            }
            offset += UInt64(block)
            block = min(2 * block, 1 << 20)
        }
        return nil
    }
}
