import LumaEngine
import LumaFormat

extension SweepRun {
    /// How many settings one replay runs over one decode of a recording (a pass): as many
    /// instances as fit `budget` beside the replay of the corpus's largest frames and chunks
    /// (``ReplayMemory``), each planned at the most any setting of the grid declares, at most the
    /// instance limit. The same corpus, grid and budget give the same pass size on any machine,
    /// so shards plan alike. Refused with the memory one instance needs when none fits.
    public static func passSize(_ grid: SweepGrid, corpus: SweepCorpus, registry: AnalyzerRegistry, budget: MemoryBudget,
                                limit: Int = AnalyzerSetup.instanceLimit) throws -> Int {
        let replays = try corpus.entries.map { ReplayMemory(try RecordingReader(path: $0.recordingPath)) }
        guard let plan = ReplayMemory.largest(of: replays) else { return limit }
        let each = try grid.setups(registry: registry).map { plan.instanceBytes($0, registry: registry) }.max() ?? 0
        do throws(MemoryNeed) { return try plan.instancesFitting(budget, eachBytes: each, limit: limit) } catch {
            throw SweepError.memory(error)
        }
    }
}
