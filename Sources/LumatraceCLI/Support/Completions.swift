import ArgumentParser
import LumaEngine

/// What the shell completes where (`lumatrace --generate-completion-script bash|zsh|fish`): analyzer
/// names after `--analyzer`, `NAME.KEY=` after `--set`, and files of the kind an argument reads.
/// Analyzer names and keys come from the running binary's registry when the user presses TAB, so a
/// plugin's own `lumatrace-NAME` completes its analyzer too.
enum Completions {
    /// Recordings (`.luma`); URLs are typed, not completed.
    static let recording = CompletionKind.file(extensions: ["luma"])
    /// Event logs (`.events.jsonl`).
    static let eventLog = CompletionKind.file(extensions: ["jsonl"])
    /// Ground truth and pipeline files (`.json`).
    static let json = CompletionKind.file(extensions: ["json"])

    /// `--analyzer`: the registry's analyzer names that start with what is typed.
    static let analyzerName = CompletionKind.custom { _, _, typed in analyzerNames(startingWith: typed) }

    /// `--set`: `NAME.` for the analyzers that start with what is typed, then, once a name and its
    /// dot are typed, that analyzer's `NAME.KEY=`.
    static let setting = CompletionKind.custom { _, _, typed in settings(startingWith: typed) }

    static func analyzerNames(startingWith typed: String) -> [String] {
        Lumatrace.registry.names.filter { $0.hasPrefix(typed) }
    }

    static func settings(startingWith typed: String) -> [String] {
        guard let dot = typed.firstIndex(of: ".") else {
            return analyzerNames(startingWith: typed).map { $0 + "." }
        }
        guard let descriptor = try? Lumatrace.registry.descriptor(named: String(typed[..<dot])) else { return [] }
        return descriptor.options.map { "\(descriptor.name).\($0.key)=" }.filter { $0.hasPrefix(typed) }
    }
}
