import Foundation
import LumaTestSupport

/// Reading `lumatrace … --help` the way a user does: which commands there are, and what an option
/// says it does.
extension CLI {
    /// Every command a user can run, as its words (`["regress", "run"]`): the top level's
    /// subcommands and theirs, read from the help (a group with subcommands is not itself listed).
    static func allCommands(under prefix: [String] = []) throws -> [[String]] {
        let help = try run(prefix + ["--help"])
        guard help.status == 0 else { throw Failure(description: "lumatrace \(prefix) --help failed: \(help.stderr)") }
        let names = subcommands(in: help.stdout)
        if names.isEmpty { return [prefix] }
        return try names.flatMap { try allCommands(under: prefix + [$0]) }
    }

    /// The help text of `option` in `command --help`, its wrapped lines joined; nil when the
    /// command has no such option.
    static func help(of option: String, in command: [String]) throws -> String? {
        let help = try run(command + ["--help"])
        guard help.status == 0 else { throw Failure(description: "lumatrace \(command) --help failed: \(help.stderr)") }
        let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try Regex("^  \(option)(?: <[^>]+>)?(?:  +(.*))?$")
        guard let first = lines.firstIndex(where: { $0.wholeMatch(of: start) != nil }),
              let match = lines[first].wholeMatch(of: start) else { return nil }
        var words = [match.output[1].substring.map(String.init) ?? ""]
        // Wrapped lines are indented past the options' names; the next option starts with "  -".
        for line in lines[(first + 1)...] {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("    "), !text.hasPrefix("-") else { break }
            words.append(text)
        }
        return words.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The names listed under `SUBCOMMANDS:` in a help text.
    private static func subcommands(in help: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let heading = lines.firstIndex(of: "SUBCOMMANDS:") else { return [] }
        var names: [String] = []
        for line in lines[(heading + 1)...] {
            if line.isEmpty { break }
            // A name sits two spaces in; its description's wrapped lines sit further in.
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first else { continue }
            names.append(String(name))
        }
        return names
    }
}
