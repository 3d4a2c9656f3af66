import Foundation
import LumaBase

/// A file an analyzer's program is made of (a script, a binary), with its SHA-256 as it was when
/// the log was written. The log header keeps them, so `verify` and `regress` can say that the
/// plugin itself changed rather than leave a user to wonder why the events did.
public struct ProgramFile: Sendable, Equatable {
    /// As the command names it (relative to the folder the program runs in, or absolute).
    public var path: String
    /// SHA-256 of the file's bytes, lowercase hex.
    public var sha256: String

    public init(path: String, sha256: String) {
        self.path = path
        self.sha256 = sha256
    }

    public var json: JSONValue { .object([.init("path", .string(path)), .init("sha256", .string(sha256))]) }

    /// The files a shell command names: each word (quotes stripped, options skipped) that is a
    /// regular file, absolute or relative to `folder`, at most 16, in the command's order. A
    /// program found on `PATH` (`python3`) is not one of them: it belongs to the machine.
    public static func named(in command: String, folder: String) -> [ProgramFile] {
        var out: [ProgramFile] = []
        for word in words(of: command) where !word.hasPrefix("-") && out.count < 16 {
            guard word.contains("/") || !word.contains("=") else { continue }
            let path = word.hasPrefix("/") ? word : URL(fileURLWithPath: folder).appendingPathComponent(word).path
            // Only words that look like paths or name a file in the folder; never a PATH lookup.
            guard (try? SystemPath.status(of: path))?.kind == .regularFile, let digest = try? FileDigest.sha256(ofFileAt: path),
                  !out.contains(where: { $0.path == word }) else { continue }
            out.append(ProgramFile(path: word, sha256: digest))
        }
        return out
    }

    /// Shell words, split on blanks and with one level of quotes removed; operators are words too.
    static func words(of command: String) -> [String] {
        var words: [String] = [], current = "", quote: Character?
        for c in command {
            if let q = quote {
                if c == q { quote = nil } else { current.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c
            } else if c == " " || c == "\t" || c == "\n" || c == ";" || c == "|" || c == "&" {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(c)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
