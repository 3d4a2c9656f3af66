/// Bytes in memory, read as a recording: a file received some other way (a message, a database
/// column), or a test's crafted bytes.
public final class MemoryByteSource: ByteSource {
    public let name: String
    public let bytes: [UInt8]
    public var size: UInt64 { UInt64(bytes.count) }

    /// `name` is what messages call these bytes.
    public init(_ bytes: [UInt8], name: String = "(memory)") {
        self.bytes = bytes
        self.name = name
    }

    public func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(LumaFormatError) {
        guard offset <= size, UInt64(buffer.count) <= size - offset else { throw pastTheEnd(offset, count: buffer.count) }
        bytes.withUnsafeBytes { all in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[Int(offset)..<Int(offset) + buffer.count]))
        }
    }
}
