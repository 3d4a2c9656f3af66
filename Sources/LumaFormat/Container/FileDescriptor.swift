#if canImport(Glibc)
import Glibc
#endif
import LumaBase
import LumaOutput

/// A recording's file as the format reads and writes it: positioned reads for random access, and
/// whole writes for the append-only writer, over a ``SystemFile``. Its errors name the path:
/// `LumaFormatError.io(path:_:)` with the failed call and `errno`, or ``LumaFormatError/fileEnds(path:at:needed:from:)``
/// for a read the file is too short for.
final class FileHandleIO: @unchecked Sendable {
    let path: String
    let file: SystemFile

    private init(path: String, file: SystemFile) {
        self.path = path
        self.file = file
    }

    /// Writes through an ``OutputFile``'s open file, which that output closes.
    static func borrowing(_ output: OutputFile) -> FileHandleIO {
        FileHandleIO(path: output.path, file: output.openFile)
    }

    static func openForReading(_ path: String) throws(LumaFormatError) -> FileHandleIO {
        // Recordings are read at offsets: only a regular file will do. A device such as /dev/zero
        // or a pipe is named for what it is, not reported as an empty file or waited on.
        do throws(SystemFile.OpenProblem) {
            return FileHandleIO(path: path, file: try SystemFile.openFile(path, acceptingPipes: false).file)
        } catch {
            switch error {
            case .unreadable(let failure): throw LumaFormatError.io(path: path, failure)
            case .notAFile(let kind): throw LumaFormatError.notARegularFile(path: path, kind: kind.inWords)
            }
        }
    }

    /// Opens a file for writing. With `exclusive`, an existing file is an error instead of being replaced.
    static func create(_ path: String, exclusive: Bool) throws(LumaFormatError) -> FileHandleIO {
        do throws(SystemCallError) {
            return FileHandleIO(path: path, file: try SystemFile.create(path, exclusive ? .exclusive : .truncating))
        } catch {
            if error.errno == EEXIST { throw LumaFormatError.outputExists(path: path) }
            throw LumaFormatError.io(path: path, error)
        }
    }

    static func openForUpdate(_ path: String) throws(LumaFormatError) -> FileHandleIO {
        do throws(SystemCallError) { return FileHandleIO(path: path, file: try SystemFile.open(path, for: .update)) } catch {
            throw LumaFormatError.io(path: path, error)
        }
    }

    func size() throws(LumaFormatError) -> UInt64 {
        do throws(SystemCallError) { return try file.status().size } catch { throw LumaFormatError.io(path: path, error) }
    }

    /// Reads exactly `count` bytes at `offset` into `buffer`; fewer available is an error.
    func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(LumaFormatError) {
        let done: Int
        do throws(SystemCallError) { done = try file.read(at: offset, into: buffer) } catch { throw LumaFormatError.io(path: path, error) }
        if done < buffer.count {
            throw LumaFormatError.fileEnds(path: path, at: offset + UInt64(done), needed: buffer.count, from: offset)
        }
    }

    func read(at offset: UInt64, count: Int) throws(LumaFormatError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        if count == 0 { return bytes }
        let result: Result<Void, LumaFormatError> = bytes.withUnsafeMutableBytes { buffer in
            do throws(LumaFormatError) { return .success(try read(at: offset, into: buffer)) } catch { return .failure(error) }
        }
        try result.get()
        return bytes
    }

    /// Writes all of `bytes` at the current position.
    func write(_ bytes: UnsafeRawBufferPointer) throws(LumaFormatError) {
        do throws(SystemCallError) { try file.write(bytes) } catch { throw LumaFormatError.io(path: path, error) }
    }

    func write(_ bytes: [UInt8]) throws(LumaFormatError) {
        do throws(SystemCallError) { try file.write(bytes) } catch { throw LumaFormatError.io(path: path, error) }
    }

    func seek(to offset: UInt64) throws(LumaFormatError) {
        do throws(SystemCallError) { try file.seek(to: offset) } catch { throw LumaFormatError.io(path: path, error) }
    }

    func truncate(to length: UInt64) throws(LumaFormatError) {
        do throws(SystemCallError) { try file.truncate(to: length) } catch { throw LumaFormatError.io(path: path, error) }
    }

    func sync() throws(LumaFormatError) {
        do throws(SystemCallError) { try file.sync() } catch { throw LumaFormatError.io(path: path, error) }
    }
}
