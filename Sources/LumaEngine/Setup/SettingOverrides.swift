import Foundation
import LumaAnalysis

/// Analyzer settings to try on top of a golden log's own (`NAME.KEY=VALUE`), per analyzer name in
/// the order first named.
public struct SettingOverrides: Sendable {
    public private(set) var byAnalyzer: [(name: String, settings: [(key: String, value: String)])] = []

    public init() {}

    public var analyzers: [String] { byAnalyzer.map(\.name) }
    public var isEmpty: Bool { byAnalyzer.isEmpty }

    /// Adds `key = value` for the analyzer (instance) `name`.
    public mutating func add(_ name: String, key: String, value: String) {
        if let i = byAnalyzer.firstIndex(where: { $0.name == name }) {
            byAnalyzer[i].settings.append((key, value))
        } else {
            byAnalyzer.append((name, [(key, value)]))
        }
    }

    /// The settings for one analyzer, in the order given.
    public func settings(for analyzer: String) -> [(key: String, value: String)] {
        byAnalyzer.first { $0.name == analyzer }?.settings ?? []
    }

    /// Applies the settings to the setups of the analyzers they name (others are left alone),
    /// checking each value against the analyzer's options.
    public func apply(to setups: inout [AnalyzerSetup], registry: AnalyzerRegistry) throws(OptionError) {
        for (name, settings) in byAnalyzer {
            guard let i = setups.firstIndex(where: { $0.name == name }) else { continue }
            try setups[i].apply(settings, with: registry.descriptor(named: setups[i].analyzer))
        }
    }
}
