extension SystemFile {
    /// Why a whole small file (a truth file, a label file, a `--set` value, a pipeline) was not
    /// read. The caller names the path and says what it expected, in its own typed error.
    package enum WholeFileProblem: Error, Equatable, Sendable {
        /// It could not be opened, looked at or read: the call and its `errno`.
        case unreadable(SystemCallError)
        /// It is something else than the reader takes (a folder, a device, or a pipe where only
        /// regular files are taken).
        case notAFile(FileStatus.Kind)
        /// It holds more than `limit` bytes: `bytes` says how many a regular file holds; a pipe
        /// (`nil`) sent more than the limit, and was read no further.
        case tooLarge(bytes: UInt64?, limit: Int)

        /// In words, without the path: `"is a character device"`, `"is 2147483648 bytes, over the
        /// 16777216-byte limit"`, `"cannot open: No such file or directory"`.
        package var description: String {
            switch self {
            case .unreadable(let error): return error.description
            case .notAFile(let kind): return "is \(kind.inWords)"
            case .tooLarge(let bytes?, let limit): return "is \(bytes) bytes, over the \(limit)-byte limit"
            case .tooLarge(nil, let limit): return "holds more than the \(limit)-byte limit"
            }
        }
    }

    /// The whole content of the file at `path`, read without ever holding more than
    /// `maximumBytes + 1` bytes: a regular file (and, with `acceptingPipes`, a pipe such as the
    /// shell's `<(…)`) of at most `maximumBytes`.
    ///
    /// A regular file's size is checked before anything is read, so a 2 GiB file given as a small
    /// one costs nothing; a file that grows past the limit while it is read, or a pipe that sends
    /// more, is still refused once `maximumBytes + 1` have come. A FIFO is opened without waiting
    /// for its writer when pipes are refused, so naming one never hangs.
    ///
    /// ```swift
    /// do throws(SystemFile.WholeFileProblem) {
    ///     let bytes = try SystemFile.readWhole(path, maximumBytes: 16 << 20)
    /// } catch {
    ///     throw MyError.unreadable(path: path, problem: error)   // "is a folder", …
    /// }
    /// ```
    package static func readWhole(_ path: String, maximumBytes: Int, acceptingPipes: Bool = false) throws(WholeFileProblem) -> [UInt8] {
        let file: SystemFile, status: FileStatus
        do throws(SystemCallError) {
            file = try open(path, for: acceptingPipes ? .read : .readWithoutWaiting)
            status = try file.status()
        } catch { throw .unreadable(error) }
        switch status.kind {
        case .regularFile:
            guard status.size <= UInt64(maximumBytes) else { throw .tooLarge(bytes: status.size, limit: maximumBytes) }
        case .fifo where acceptingPipes:
            break
        default:
            throw .notAFile(status.kind)
        }
        let bytes: [UInt8]
        do throws(SystemCallError) { bytes = try file.read(upTo: maximumBytes + 1) } catch { throw .unreadable(error) }
        guard bytes.count <= maximumBytes else {
            throw .tooLarge(bytes: status.kind == .regularFile ? (try? file.status())?.size : nil, limit: maximumBytes)
        }
        return bytes
    }
}
