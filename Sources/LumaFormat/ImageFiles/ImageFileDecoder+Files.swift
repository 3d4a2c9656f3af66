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
            let problem: ImageProblem = switch error {
            case .notAFile(.folder): .folder
            case .notAFile: .notARegularFile
            case .tooLarge(let bytes?, let limit): .tooLarge(bytes: bytes, limit: limit)
            case .tooLarge(nil, let limit): .grewPastLimit(limit: limit)
            case .unreadable(let failure): .unreadable(failure)
            }
            throw ImageDecodingError(source: path, problem)
        }
    }

    /// The names in a folder (not `.` and `..`); a name that is not UTF-8 keeps its bytes.
    static func listFolder(_ path: String) throws(ImageDecodingError) -> [String] {
        do throws(SystemCallError) { return try SystemPath.entries(of: path) } catch {
            throw ImageDecodingError(source: path, .folderUnreadable(error))
        }
    }

    /// Whether `path` is a regular file, following symbolic links.
    static func isRegularFile(_ path: String) -> Bool {
        (try? SystemPath.status(of: path))?.kind == .regularFile
    }
}
