import LumaAnalysis

extension AnalyzerConfiguration {
    /// The defaults with some options changed, for tests: `.with { $0.trajectoryLength = 6 }`.
    public static func with(_ change: (inout Self) -> Void) -> Self {
        var configuration = Self()
        change(&configuration)
        return configuration
    }
}
