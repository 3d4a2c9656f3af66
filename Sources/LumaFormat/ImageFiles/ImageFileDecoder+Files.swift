import LumaBase

// File access through the system layer only (SystemFile): no Foundation, and nothing that can
// block on a FIFO.
extension ImageFileDecoder {
    /// Reads a whole regular file of at most `maximumFileSize` bytes.
    static func readFile(atPath path: String) throws(ImageDecodingError) -> [UInt8] {
        func failure(_ reason: String) -> ImageDecodingError {
            ImageDecodingError(source: path, reason: reason)
        }
        // Without waiting: opening a FIFO for reading would otherwise wait for a writer forever.
        let file: SystemFile
        do throws(SystemCallError) { file = try SystemFile.open(path, for: .readWithoutWaiting) } catch {
            throw failure("cannot open: \(error.errnoText)")
        }
        let info: FileStatus
        do throws(SystemCallError) { info = try file.status() } catch { throw failure("cannot stat: \(error.errnoText)") }
        guard info.kind == .regularFile else {
            throw failure(info.kind == .folder ? "is a folder, not an image file" : "is not a regular file")
        }
        let size = Int(info.size)
        guard size <= maximumFileSize else {
            throw failure(
                "file is \(size >> 20) MiB, over the \(maximumFileSize >> 20) MiB limit for one "
                    + "image")
        }
        // A file that shrank while read gives fewer bytes: decoded, it says truncated.
        do throws(SystemCallError) { return try file.read(upTo: size) } catch { throw failure("cannot read: \(error.errnoText)") }
    }

    /// The names in a folder (not `.` and `..`); a name that is not UTF-8 keeps its bytes.
    static func listFolder(_ path: String) throws(ImageDecodingError) -> [String] {
        do throws(SystemCallError) { return try SystemPath.entries(of: path) } catch {
            throw ImageDecodingError(source: path, reason: "cannot open the folder: \(error.errnoText)")
        }
    }

    /// Whether `path` is a regular file, following symbolic links.
    static func isRegularFile(_ path: String) -> Bool {
        (try? SystemPath.status(of: path))?.kind == .regularFile
    }
}
