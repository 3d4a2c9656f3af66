extension SystemFile {
    /// Why a path was not opened as a file to read (``openFile(_:acceptingPipes:)``).
    package enum OpenProblem: Error, Equatable, Sendable {
        /// The open or its `fstat` failed: the call and its `errno`.
        case unreadable(SystemCallError)
        /// A folder, a device, or a pipe where only regular files are taken.
        case notAFile(FileStatus.Kind)
    }

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
        do throws(OpenProblem) { (file, status) = try openFile(path, acceptingPipes: acceptingPipes) } catch {
            switch error {
            case .unreadable(let failure): throw .unreadable(failure)
            case .notAFile(let kind): throw .notAFile(kind)
            }
        }
        if status.kind == .regularFile, status.size > UInt64(maximumBytes) {
            throw .tooLarge(bytes: status.size, limit: maximumBytes)
        }
        let bytes: [UInt8]
        do throws(SystemCallError) { bytes = try file.read(upTo: maximumBytes + 1) } catch { throw .unreadable(error) }
        guard bytes.count <= maximumBytes else {
            throw .tooLarge(bytes: status.kind == .regularFile ? (try? file.status())?.size : nil, limit: maximumBytes)
        }
        return bytes
    }

    /// Opens the file at `path` for reading, with what it is: a regular file, or with
    /// `acceptingPipes` also a pipe. Anything else (a folder, a device) is `.notAFile`, and a FIFO
    /// where pipes are refused is opened without waiting for its writer, so naming one never hangs;
    /// a failed open or `fstat` is `.unreadable`. How much to read is the caller's.
    package static func openFile(_ path: String, acceptingPipes: Bool) throws(OpenProblem) -> (file: SystemFile, status: FileStatus) {
        let file: SystemFile, status: FileStatus
        do throws(SystemCallError) {
            file = try open(path, for: acceptingPipes ? .read : .readWithoutWaiting)
            status = try file.status()
        } catch { throw .unreadable(error) }
        guard status.kind == .regularFile || (acceptingPipes && status.kind == .fifo) else { throw .notAFile(status.kind) }
        return (file, status)
    }
}
