import LumaRegression

extension FlagHints {
    /// A sweep's refusal as the `sweep` command says it: its subject as the flag that gave it
    /// (`--grid`, `--random N`, `--keep-logs`), and the flags and commands that fix it.
    static func message(for error: SweepError) -> String {
        let said: String
        switch error.subject {
        case .grid: said = "--grid \(error.detail)"
        case .best(let measure): said = "--best \(measure): \(error.detail)"
        case .sample(let count): said = "--random \(count): \(error.detail)"
        case .keptLogs: said = "--keep-logs \(error.detail)"
        case .none: said = error.detail
        }
        switch error {
        case .givenTwice: return said + " (with --grid or --set)"
        case .ambiguousCommas: return said + ", the whole --grid in single quotes for the shell"
        case .notMeasured(_, _, let measures) where measures.isEmpty: return said + ": leave out --best"
        case .tooManySettings: return said + " (its values as --set, the rest as --grid)"
        case .sampleSpaceTooSmall: return said + " without --random"
        case .badValues(_, _, .rangeWithoutCount): return said + " (--random N)"
        case .replay(_, .damaged): return said + "; a sweep scores whole recordings: `lumatrace recover` keeps its intact chunks, or move it out of the corpus"
        case .noTruth: return said + " (lumatrace synth --truth or lumatrace truth import make truth)"
        case .keptLogExists: return said + " (--force replaces it)"
        default: return said
        }
    }
}
