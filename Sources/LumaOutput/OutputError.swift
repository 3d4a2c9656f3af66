import LumaBase

/// Why a result could not be written where the user asked. Each case names the path, so the
/// command line prints one line that says what to do.
public enum OutputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Something is already there and replacing it was not allowed.
    case exists(path: String)
    /// The output is one of the command's own inputs (the same file, perhaps through a link).
    case isInput(path: String, input: String)
    /// The output names a folder where a file is written (or a file where a folder is written).
    case wrongKind(path: String, found: String, wanted: String)
    /// The output is a device, FIFO or socket, or standard output, and this result needs a file.
    case notAFile(path: String, found: String, why: String)
    /// The folder that is to hold the output is not there.
    case folderMissing(path: String, folder: String)
    /// Another process is writing the same output right now.
    case busy(path: String)
    /// An existing output folder holds files that this command did not write; it is never replaced.
    case foreignFolder(path: String, example: String)
    /// The output folder, or an entry inside it, is a symbolic link: an output folder is never
    /// written or replaced through a link, which could lead outside it.
    case symbolicLink(path: String)
    /// Creating, syncing, renaming or locking failed (a full disk, permissions): the call and `errno`.
    case io(path: String, SystemCallError)
    /// A write failed (a full disk); `leaves` says what is left under the name.
    case writeFailed(path: String, SystemCallError, leaves: LeftBehind)
    /// The output was written to after it was committed or closed.
    case finished(path: String)
    /// The existing file is a result of another kind (a recording where an event log would go):
    /// replacing is allowed for a result of the same kind only.
    case otherKind(path: String, found: ResultKind, wanted: ResultKind)

    public var description: String {
        switch self {
        case .exists(let path):
            return "\(path): already exists"
        case .isInput(let path, let input):
            return input == path ? "\(path): is this command's input; write the result somewhere else"
                                 : "\(path): is the same file as the input \(input); write the result somewhere else"
        case .wrongKind(let path, let found, let wanted):
            return "\(path): is \(found); the output here is \(wanted)"
        case .notAFile(let path, let found, let why):
            return "\(path): is \(found), and \(why)"
        case .folderMissing(let path, let folder):
            return "\(path): the folder \(folder) does not exist"
        case .busy(let path):
            return "\(path): another lumatrace process is writing it right now; wait for it to finish or choose another output"
        case .foreignFolder(let path, let example):
            return "\(path): holds files lumatrace did not write (e.g. \(example)); it is never replaced, choose a new folder"
        case .symbolicLink(let path):
            return "\(path): is a symbolic link; lumatrace never writes an output folder through a link: name the folder itself, or remove the link"
        case .io(let path, let failure):
            return "\(path): \(failure)"
        case .writeFailed(let path, let failure, let leaves):
            switch leaves {
            case .stream: return "\(path): \(failure)"
            case .earlierWritesWhole: return "\(path): \(failure) (it keeps what was written before, whole)"
            case .nothing: return "\(path): \(failure) (nothing is written under this name)"
            case .nothingIn(let folder): return "\(path): \(failure) (nothing is written under \(folder))"
            }
        case .finished(let path):
            return "\(path): is already finished"
        case .otherKind(let path, let found, let wanted):
            return "\(path): is \(found.noun), not \(wanted.noun); a result replaces only a file of its own kind: remove it first or choose another name"
        }
    }
}

extension OutputError {
    /// What a failed write leaves under the output's name.
    public enum LeftBehind: Equatable, Sendable {
        /// A stream (standard output, a FIFO): what was written has gone on.
        case stream
        /// A file written in place keeps its earlier writes, whole (a failed write is cut off).
        case earlierWritesWhole
        /// Nothing: the result is written under a temporary name first.
        case nothing
        /// Nothing under the named folder, which is written under a temporary name first.
        case nothingIn(String)
    }
}
