/// A regular file read at offsets (`pread`). Devices, pipes and folders are refused when opened:
/// a recording is read at offsets, so only a regular file will do.
public final class FileByteSource: ByteSource {
    public let name: String
    public let size: UInt64
    let file: FileHandleIO

    public init(path: String) throws(LumaFormatError) {
        file = try FileHandleIO.openForReading(path)
        size = try file.size()
        name = path
    }

    public func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(LumaFormatError) {
        guard offset <= size, UInt64(buffer.count) <= size - offset else { throw pastTheEnd(offset, count: buffer.count) }
        try file.read(at: offset, into: buffer)
    }
}
