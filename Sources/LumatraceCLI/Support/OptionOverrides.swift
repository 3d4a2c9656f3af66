import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaRegression

/// Analyzer options given on the command line as `--set NAME.KEY=VALUE` (`replay`, `regress`).
/// A VALUE of `@FILE` is the text of FILE, so the log header holds the value itself, not a path.
struct OptionOverrides {
    /// The settings, per analyzer.
    private(set) var settings = SettingOverrides()

    /// `NAME.KEY` → FILE, for the values read from `@FILE`.
    private var files: [String: String] = [:]

    var analyzers: [String] { settings.analyzers }
    var isEmpty: Bool { settings.isEmpty }

    /// A `--set NAME.KEY=@FILE` value file larger than this is refused before it is read.
    static let maximumValueFileBytes = 16 << 20

    /// No overrides.
    init() {}

    init(_ arguments: [String]) throws {
        for s in arguments {
            guard let eq = s.firstIndex(of: "="), let dot = s[..<eq].firstIndex(of: "."), dot > s.startIndex else {
                throw CLIError("--set '\(s)' is not NAME.KEY=VALUE (e.g. differencing.threshold=15)")
            }
            var value = String(s[s.index(after: eq)...])
            if value.hasPrefix("@") {
                let path = String(value.dropFirst())
                let bytes: [UInt8]
                do throws(SystemFile.WholeFileProblem) {
                    bytes = try SystemFile.readWhole(path, maximumBytes: Self.maximumValueFileBytes, acceptingPipes: true)
                } catch {
                    throw CLIError("--set \(s[..<eq]): '\(path)': \(error.description) (the value file is UTF-8 text of at most 16 MiB)")
                }
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    throw CLIError("--set \(s[..<eq]): '\(path)' is not UTF-8 text")
                }
                value = text.trimmingCharacters(in: .whitespacesAndNewlines)
                files[String(s[..<eq])] = path
            }
            self.settings.add(String(s[..<dot]), key: String(s[s.index(after: dot)..<eq]), value: value)
        }
    }

    /// The settings for one analyzer, in the order given.
    func settings(for analyzer: String) -> [(key: String, value: String)] { settings.settings(for: analyzer) }

    /// Applies the settings to the setups of the analyzers they name (others are left alone),
    /// checking each value against the analyzer's options.
    func apply(to setups: inout [AnalyzerSetup], registry: AnalyzerRegistry) throws {
        try explaining { try settings.apply(to: &setups, registry: registry) }
    }

    /// Runs `body`; an option error about a value read from `@FILE` names the file and quotes at
    /// most a line of it, never the whole file.
    func explaining<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as OptionError {
            // A value given with --set is part of the command line: a wrong one is a usage error.
            guard let path = files[error.option] else { throw UsageError(error) }
            // The middle goes: messages quote the value first and give the reason last.
            let message = oneLine(error.message)
            let shown = message.count <= 300 ? message : message.prefix(140) + " … " + message.suffix(140)
            throw UsageError("--set \(error.option)=@\(path): \(shown)")
        }
    }
}
