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
    /// Creating, writing, syncing or renaming failed (a full disk, permissions).
    case io(path: String, reason: String)
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
        case .io(let path, let reason):
            return "\(path): \(reason)"
        case .otherKind(let path, let found, let wanted):
            return "\(path): is \(found.noun), not \(wanted.noun); a result replaces only a file of its own kind: remove it first or choose another name"
        }
    }
}
