#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// File access with POSIX calls only: no Foundation, and nothing that can block on a FIFO.
extension ImageFileDecoder {
    /// Reads a whole regular file of at most `maximumFileSize` bytes.
    static func readFile(atPath path: String) throws(ImageDecodingError) -> [UInt8] {
        func failure(_ reason: String) -> ImageDecodingError {
            ImageDecodingError(source: path, reason: reason)
        }
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
        let fd = open(SystemPath.bytes(path), O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw failure("cannot open: \(errnoDescription())") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("cannot stat: \(errnoDescription())") }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw failure(
                (info.st_mode & S_IFMT) == S_IFDIR
                    ? "is a folder, not an image file" : "is not a regular file")
        }
        let size = Int(info.st_size)
        guard size <= maximumFileSize else {
            throw failure(
                "file is \(size >> 20) MiB, over the \(maximumFileSize >> 20) MiB limit for one "
                    + "image")
        }
        var readError: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            initialized = 0
            while initialized < size {
                let n = read(fd, buffer.baseAddress! + initialized, size - initialized)
                if n > 0 {
                    initialized += n
                } else if n == 0 {
                    break  // shrank while reading: decode what is there (it will say truncated)
                } else if errno != EINTR {
                    readError = errno
                    break
                }
            }
        }
        if readError != 0 { throw failure("cannot read: \(errnoDescription(readError))") }
        return bytes
    }

    /// The names in a folder (not `.` and `..`).
    static func listFolder(_ path: String) throws(ImageDecodingError) -> [String] {
        guard let dir = opendir(SystemPath.bytes(path)) else {
            throw ImageDecodingError(
                source: path, reason: "cannot open the folder: \(errnoDescription())")
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                let capacity = MemoryLayout.size(ofValue: tuple.pointee)
                return tuple.withMemoryRebound(to: CChar.self, capacity: capacity) {
                    SystemPath.string(fromBytes: $0)  // a name that is not UTF-8 keeps its bytes
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Whether `path` is a regular file, following symbolic links.
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(SystemPath.bytes(path), &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    static func errnoDescription(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }
}
