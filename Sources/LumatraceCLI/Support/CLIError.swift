import ArgumentParser
import Foundation
import LumaEngine
import LumaFormat

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
        printError(error)
        throw ExitCode(1)
    }
}

/// Prints `lumatrace: error: …` on stderr, with file names that are not UTF-8 shown as `\xNN`.
func printError(_ error: any Error) {
    FileHandle.standardError.write(Data("lumatrace: error: \(SystemPath.display("\(error)"))\n".utf8))
}

func warn(_ message: String) {
    FileHandle.standardError.write(Data("lumatrace: \(SystemPath.display(message))\n".utf8))
}
