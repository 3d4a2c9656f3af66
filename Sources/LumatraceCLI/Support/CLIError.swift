import ArgumentParser
import Foundation
import LumaAnalysis
import LumaEngine
import LumaFormat
import LumaBase

/// A failure the command line reports as one line on stderr, with a non-zero exit status.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A wrong command line found only once the command runs (a value out of range for the scene or
/// analyzer it names): printed as one line like any error, with exit status 64 (usage), as
/// ArgumentParser's own checks of the command line exit.
struct UsageError: Error, CustomStringConvertible {
    /// What went wrong, printed as ``printError(_:command:)`` prints it (an ``OptionError`` names
    /// the command's flag).
    let underlying: any Error
    init(_ underlying: any Error) { self.underlying = underlying }
    init(_ description: String) { underlying = CLIError(description) }
    var description: String { FlagHints.message(for: underlying, in: .other) }
}

/// Runs a command body, turning every error into one readable line and exit status 2 (64 for a
/// ``UsageError``, or the status the body chose with `ExitCode`).
func reportingErrors(in command: CommandContext = .other, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let e as ExitCode {
        throw e
    } catch let e as CleanExit {
        throw e
    } catch let e as ValidationError {
        throw e
    } catch let e as UsageError {
        printError(e.underlying, command: command)
        throw ExitCode(Lumatrace.Status.usage)
    } catch {
        printError(error, command: command)
        throw ExitCode(Lumatrace.Status.failure)
    }
}

/// Prints `lumatrace: error: …` on stderr as one line: file names that are not UTF-8 shown as
/// `\xNN`, and control characters that a message quotes from a hostile input (a newline inside a
/// Y4M tag, say) shown escaped, so the message cannot break into several lines.
func printError(_ error: any Error, command: CommandContext = .other) {
    let message = FlagHints.message(for: error, in: command)
    FileHandle.standardError.write(Data("lumatrace: error: \(oneLine(SystemPath.display(message)))\n".utf8))
}

/// `text` with its control characters written as escapes (`\n`, `\r`, `\t`, `\u{1B}`).
func oneLine(_ text: String) -> String { escapingControls(text, keeping: []) }

/// `text` with its control characters, but those in `kept`, written as escapes (``ControlCharacters``).
func escapingControls(_ text: String, keeping kept: Set<Unicode.Scalar>) -> String { ControlCharacters.escaped(text, keeping: kept) }

func warn(_ message: String) {
    FileHandle.standardError.write(Data("lumatrace: \(oneLine(SystemPath.display(message)))\n".utf8))
}
