import ArgumentParser
import Foundation
import LumaEngine

/// A failure the command line reports as one line on stderr, with a non-zero exit status.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs a command body, turning every error into one readable line and exit status 1 (or the
/// status the body chose with `ExitCode`).
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let e as ExitCode {
        throw e
    } catch let e as CleanExit {
        throw e
    } catch let e as ValidationError {
        throw e
    } catch {
        FileHandle.standardError.write(Data("lumatrace: error: \(error)\n".utf8))
        throw ExitCode(1)
    }
}

func warn(_ message: String) {
    FileHandle.standardError.write(Data("lumatrace: \(message)\n".utf8))
}
