#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LumaBase

/// A result file being written: an event log, a recording, an export, a report.
///
/// Every command writes its results through this type, which enforces the rules that keep a user's
/// data safe:
/// - the output is never one of the command's inputs, a folder, or a device that would be
///   replaced by a file;
/// - the bytes go to a temporary sibling (`.NAME.PID-N.partial`) and reach the final name only in
///   `commit()`, by a rename, after an `fsync`: a failure or a kill never leaves a half-written
///   result under the final name, and an existing result is replaced only by a complete one;
/// - an existing result is replaced only when `replacingExisting` (the user's `--force`);
/// - one process at a time writes a given output (`OutputLock`);
/// - where `streams` allows it, a character device or FIFO (or `-`, standard output) is written
///   directly, never replaced.
///
/// ```swift
/// let out = try OutputFile.create("clip.y4m", replacingExisting: force, inputs: [recording], streams: .allowed)
/// try out.write(header)
/// try out.commit()      // or out.abandon(); dropping it uncommitted abandons it too
/// ```
public final class OutputFile {
    /// Where the bytes go while they are written.
    public enum Placement: Sendable {
        /// To a temporary sibling, renamed into place by `commit()`: nothing half-written ever
        /// carries the final name. Dropping the output uncommitted removes the temporary file.
        case whenComplete
        /// Straight to the final name, for a *new* file whose every prefix is worth keeping (a
        /// recording: a killed recorder leaves its complete chunks under the name the user gave).
        /// Dropping the output uncommitted keeps the file; ``abandon()`` removes it. An existing
        /// file that may be replaced is still written `whenComplete`, so it survives a failure.
        case inPlace
    }

    /// Whether a result may go to a stream (a device, a FIFO, standard output).
    public enum StreamPolicy: Sendable {
        /// Streams are written directly, from the first byte to the last.
        case allowed
        /// This result needs a regular file; `why` completes the refusal ("a recording's index…").
        case refused(why: String)
    }

    /// The path the user named.
    public let path: String
    /// Where the bytes go until `commit()`; `nil` when writing straight to a stream.
    public let temporaryPath: String?
    /// The file being written (standard output borrowed, never closed here).
    package private(set) var openFile: SystemFile
    private let replacing: Bool
    /// What the result is, checked again against what is there at ``commit()``.
    private var kind: ResultKind?
    private var lock: OutputLock?
    private var finished = false
    /// Written straight to ``path`` (``Placement/inPlace`` for a new file).
    public let isInPlace: Bool

    private init(path: String, temporaryPath: String?, file: SystemFile, replacing: Bool, lock: OutputLock?, inPlace: Bool = false) {
        self.path = path
        self.temporaryPath = temporaryPath
        self.openFile = file
        self.replacing = replacing
        self.lock = lock
        self.isInPlace = inPlace
    }

    deinit {
        if !finished { isInPlace ? release() : abandon() }
    }

    /// The path the bytes are going to right now: the temporary file, or the final one.
    public var writingPath: String { temporaryPath ?? path }

    /// Checks that `path` could receive a file result, without claiming it or creating anything
    /// (for commands that check their output before a long wait for input).
    /// With `streamsAllowed`, a device or FIFO passes too (a live log may go to `/dev/null`).
    public static func check(_ path: String, replacingExisting: Bool, inputs: [String] = [], kind: ResultKind? = nil,
                             streamsAllowed: Bool = false, why: String = "this result needs a file") throws(OutputError) {
        if path == "-" && !streamsAllowed { throw OutputError.notAFile(path: path, found: "standard output", why: why) }
        if path == "-" { return }
        let status = try checkDestination(path, replacingExisting: replacingExisting, inputs: inputs, wanted: "a file", kind: kind)
        if status.isStream && !streamsAllowed { throw OutputError.notAFile(path: path, found: status.noun, why: why) }
    }

    /// Whether something is at ``path`` now (a result this one would replace).
    public var destinationExists: Bool { !isStream && PathStatus.of(path).kind != .missing }

    /// Whether the output is a stream (device, FIFO, standard output) written in place.
    public var isStream: Bool { temporaryPath == nil && !isInPlace }

    /// Checks `path` and opens its temporary file (or the stream). Nothing at `path` changes yet.
    ///
    /// - Parameters:
    ///   - path: the output to write (`-` for standard output).
    ///   - replacingExisting: an existing regular file at `path` may be replaced (at `commit()`).
    ///   - inputs: files the command reads; `path` must not be any of them (links included).
    ///   - kind: what the result is; an existing file recognizably of another kind is never
    ///     replaced (``ResultKind``).
    ///   - streams: whether `-`, a character device or a FIFO may receive the result.
    ///   - placement: whether the result is written in place or renamed into place when complete.
    public static func create(_ path: String, replacingExisting: Bool, inputs: [String] = [], kind: ResultKind? = nil,
                              streams: StreamPolicy, placement: Placement = .whenComplete) throws(OutputError) -> OutputFile {
        if path == "-" {
            guard case .allowed = streams else {
                if case .refused(let why) = streams { throw OutputError.notAFile(path: path, found: "standard output", why: why) }
                throw OutputError.notAFile(path: path, found: "standard output", why: "")
            }
            return OutputFile(path: path, temporaryPath: nil, file: .borrowing(1), replacing: false, lock: nil)
        }
        let status = try checkDestination(path, replacingExisting: replacingExisting, inputs: inputs, wanted: "a file", kind: kind)
        if status.isStream {
            guard case .allowed = streams else {
                if case .refused(let why) = streams { throw OutputError.notAFile(path: path, found: status.noun, why: why) }
                throw OutputError.notAFile(path: path, found: status.noun, why: "")
            }
            do throws(SystemCallError) {
                return OutputFile(path: path, temporaryPath: nil, file: try SystemFile.open(path, for: .write), replacing: false, lock: nil)
            } catch { throw OutputError.io(path: path, error) }
        }
        let lock = try OutputLock.claim(path)
        // Checked again under the claim: another lumatrace may have finished writing it meanwhile.
        let now = try checkDestination(path, replacingExisting: replacingExisting, inputs: inputs, wanted: "a file", kind: kind)
        if case .inPlace = placement, now.kind == .missing {
            do throws(SystemCallError) {
                return OutputFile(path: path, temporaryPath: nil, file: try SystemFile.create(path, .exclusive), replacing: false, lock: lock, inPlace: true)
            } catch {
                if error.errno == EEXIST { throw OutputError.exists(path: path) }
                throw OutputError.io(path: path, error)
            }
        }
        let parts = PathParts(path)
        while true {
            let temporary = parts.hiddenSibling(".\(TemporaryName.next()).partial")
            do throws(SystemCallError) {
                let output = OutputFile(path: path, temporaryPath: temporary, file: try SystemFile.create(temporary, .exclusive),
                                        replacing: replacingExisting, lock: lock)
                output.kind = kind
                return output
            } catch {
                if error.errno != EEXIST { throw OutputError.io(path: path, error.named(.create(temporary: temporary))) }
            }
        }
    }

    /// The checks shared by files and folders: the folder exists, the path is not an input, and an
    /// existing entry is of the wanted kind and may be replaced. Returns what is there.
    static func checkDestination(_ path: String, replacingExisting: Bool, inputs: [String],
                                 wanted: String, kind: ResultKind? = nil) throws(OutputError) -> PathStatus {
        let folder = PathParts(path).folder
        guard PathStatus.of(folder).kind == .present(.folder) else { throw OutputError.folderMissing(path: path, folder: folder) }
        let status = PathStatus.of(path)
        for input in inputs where input != "-" && (status.isSameFile(as: PathStatus.of(input)) || sameName(path, input)) {
            throw OutputError.isInput(path: path, input: input)
        }
        switch status.kind {
        case .missing:
            break
        case .unreadable(let error):
            throw OutputError.io(path: path, SystemCallError(.stat, errno: error))
        case .danglingLink:
            throw OutputError.wrongKind(path: path, found: status.noun, wanted: wanted)
        case .present(.regularFile):
            if wanted != "a file" { throw OutputError.wrongKind(path: path, found: status.noun, wanted: wanted) }
            if !replacingExisting { throw OutputError.exists(path: path) }
            if let kind, let found = ResultKind.found(at: path, replacingWith: kind), found != kind {
                throw OutputError.otherKind(path: path, found: found, wanted: kind)
            }
        case .present(.folder):
            if wanted != "a folder" { throw OutputError.wrongKind(path: path, found: status.noun, wanted: wanted) }
        case .present(.characterDevice), .present(.fifo):
            break  // the caller decides whether a stream will do
        case .present(.blockDevice), .present(.socket), .present(.symbolicLink):
            throw OutputError.notAFile(path: path, found: status.noun, why: "lumatrace writes results only to files")
        }
        return status
    }

    /// Whether two paths name the same entry of the same folder (the folders compared with their
    /// links resolved): true also for a file that does not exist yet, such as a recording about to
    /// be written that another output of the same command names.
    public static func sameName(_ a: String, _ b: String) -> Bool {
        let (x, y) = (PathParts(a), PathParts(b))
        guard x.name == y.name else { return false }
        // Resolved names round-trip exactly through SystemPath, so equal strings are equal bytes.
        guard let f = try? SystemPath.resolved(x.folder), let g = try? SystemPath.resolved(y.folder) else { return false }
        return f == g
    }

    // MARK: - Writing

    /// Writes all of `bytes`. A full disk or any other failure throws, naming the output.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        guard let base = bytes.baseAddress, !finished else {
            if finished { throw OutputError.finished(path: path) }
            return
        }
        // Where this write starts: a failed one is cut off there, so a file written in place (a
        // live log) never ends in half a line or half a record.
        let start = isStream ? nil : try? openFile.position()
        do throws(SystemCallError) {
            try openFile.write(UnsafeRawBufferPointer(start: base, count: bytes.count))
        } catch {
            if let start, (try? openFile.truncate(to: start)) != nil { try? openFile.seek(to: start) }
            throw OutputError.writeFailed(path: path, error, leaves: isStream ? .stream : isInPlace ? .earlierWritesWhole : .nothing)
        }
    }

    public func write(_ bytes: [UInt8]) throws(OutputError) {
        var failure: OutputError?
        bytes.withUnsafeBytes { raw in
            do throws(OutputError) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    public func write(_ text: String) throws(OutputError) { try write(Array(text.utf8)) }

    /// Closes our descriptor so another program (ffmpeg) can write ``temporaryPath`` itself;
    /// `commit()` then syncs and renames what it wrote.
    public func handOverToAnotherWriter() {
        openFile.close()
    }

    // MARK: - Finishing

    /// Makes the result durable and puts it under its final name: `fsync`, then a rename that
    /// replaces an existing file only if `replacingExisting` was given (otherwise a file that
    /// appeared meanwhile is an error and is left alone).
    ///
    /// - Parameter replacingExisting: overrides the choice made at `create(_:replacingExisting:inputs:streams:)`
    ///   (e.g. `false` for a result that is not to replace a good one, such as a failed replay's log).
    public func commit(replacingExisting: Bool? = nil) throws(OutputError) {
        guard !finished else { return }
        let replacing = replacingExisting ?? self.replacing
        finished = true
        defer { lock?.release(); lock = nil }
        guard let temporary = temporaryPath else {
            if isInPlace {
                do throws(SystemCallError) { try openFile.sync() } catch {
                    openFile.close()
                    throw OutputError.io(path: path, error)
                }
                Self.syncFolder(of: path)
            }
            openFile.close()
            return
        }
        do throws(OutputError) {
            do throws(SystemCallError) {
                // Handed over to another writer: reopened to sync what it wrote.
                if openFile.descriptor < 0 { openFile = try SystemFile.open(temporary, for: .read) }
                try openFile.sync()
            } catch { throw OutputError.io(path: path, error.named(.syncResult)) }
            openFile.close()
            let now = try Self.checkDestination(path, replacingExisting: replacing, inputs: [], wanted: "a file", kind: kind)
            guard now.kind == .missing || now.kind == .present(.regularFile) else {
                throw OutputError.notAFile(path: path, found: now.noun, why: "it appeared while the result was written; it is left alone")
            }
            if replacing {
                do throws(SystemCallError) { try SystemPath.move(temporary, to: path) } catch { throw OutputError.io(path: path, error) }
            } else {
                try Self.placeWithoutReplacing(temporary, at: path)
            }
            Self.syncFolder(of: path)
        } catch {
            openFile.close()
            try? SystemPath.remove(temporary)
            throw error
        }
    }

    /// Gives up: removes the temporary file (or, in place, the file this output created); an
    /// existing result is untouched. Idempotent.
    public func abandon() {
        guard !finished else { return }
        finished = true
        openFile.close()
        if let temporaryPath { try? SystemPath.remove(temporaryPath) } else if isInPlace { try? SystemPath.remove(path) }
        lock?.release()
        lock = nil
    }

    /// Stops writing and keeps what was written where it is (in place: a recording's complete
    /// chunks stay recoverable under its name), releasing the claim. Idempotent.
    public func release() {
        guard !finished else { return }
        finished = true
        openFile.close()
        lock?.release()
        lock = nil
    }

    /// Finishes a complete file that is not the result asked for (the frames a recorder received
    /// before its input failed): synced, and placed under the first free name of `asideNames`
    /// instead of ``path``, which is left as it was (missing, or the earlier result). Returns the
    /// name used.
    public func commitAside(asideNames: [String]) throws(OutputError) -> String {
        guard !finished, openFile.descriptor >= 0 else { throw OutputError.finished(path: path) }
        finished = true
        defer { lock?.release(); lock = nil }
        let written = writingPath
        do throws(SystemCallError) { try openFile.sync() } catch {
            openFile.close()
            throw OutputError.io(path: written, error)
        }
        openFile.close()
        for name in asideNames {
            do throws(OutputError) {
                try Self.placeWithoutReplacing(written, at: name)
                Self.syncFolder(of: name)
                return name
            } catch .exists {
                continue
            }
        }
        throw OutputError.exists(path: asideNames.last ?? path)
    }

    /// Gives up, but keeps what was written at ``temporaryPath`` (returned) for the user to look
    /// at, e.g. the log of a replay that failed while a good log sits at the final name.
    public func keepAside() -> String? {
        guard !finished else { return nil }
        finished = true
        if !isStream { try? openFile.sync() }
        openFile.close()
        lock?.release()
        lock = nil
        return temporaryPath
    }

    /// Moves the finished file into place only if nothing is there (``SystemPath/moveWithoutReplacing(_:to:)``):
    /// something that appeared at `path` meanwhile is ``OutputError/exists(path:)`` and is left alone.
    static func placeWithoutReplacing(_ temporary: String, at path: String) throws(OutputError) {
        do throws(SystemCallError) { try SystemPath.moveWithoutReplacing(temporary, to: path) } catch {
            if error.errno == EEXIST { throw OutputError.exists(path: path) }
            throw OutputError.io(path: path, error)
        }
    }

    /// Makes a rename durable (best effort: some file systems cannot sync a folder).
    public static func syncFolder(of path: String) {
        try? SystemPath.syncFolder(PathParts(path).folder)
    }
}
