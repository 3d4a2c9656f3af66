import LumaBase

// File access through the system layer only (SystemFile): no Foundation, and nothing that can
// block on a FIFO.
extension ImageFileDecoder {
    /// Reads a whole regular file of at most `maximumFileSize` bytes.
    static func readFile(atPath path: String) throws(ImageDecodingError) -> [UInt8] {
        do throws(SystemFile.WholeFileProblem) {
            // A file that shrinks while it is read gives fewer bytes: decoded, it says truncated.
            return try SystemFile.readWhole(path, maximumBytes: maximumFileSize)
        } catch {
            let reason = switch error {
            case .notAFile(.folder): "is a folder, not an image file"
            case .notAFile: "is not a regular file"
            case .tooLarge(let bytes?, _): "file is \(bytes >> 20) MiB, over the \(maximumFileSize >> 20) MiB limit for one image"
            case .tooLarge(nil, _): "file grew past the \(maximumFileSize >> 20) MiB limit for one image while it was read"
            case .unreadable: error.description
            }
            throw ImageDecodingError(source: path, reason: reason)
        }
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
