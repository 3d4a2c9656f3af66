import LumaAnalysis
import LumaBase
import LumaEngine

/// What a sweep measured: every setting's score on every recording, and pooled over the corpus.
public struct SweepResult: Sendable {
    public var grid: SweepGrid
    /// The settings, in grid order.
    public var settings: [SweepSetting]
    /// The recordings scored (file names), in name order.
    public var recordings: [String]
    /// The corpus's recordings left out for lack of truth.
    public var withoutTruth: [String]
    /// `scores[s][r]`: setting `s` on recording `r`.
    public var scores: [[SweepScore]]
    /// Replays per recording (each one decode): the settings in passes of at most the instance limit.
    public var passes: Int
    /// `timings[s][r]`: setting `s`'s own analysis time on recording `r` (`--timings`); `nil`
    /// when not measured, and then no output names a time, so a sweep's outputs stay the same bytes.
    public var timings: [[InstanceClock.Reading]]?

    public init(grid: SweepGrid, settings: [SweepSetting], recordings: [String], withoutTruth: [String], scores: [[SweepScore]], passes: Int,
                timings: [[InstanceClock.Reading]]? = nil) {
        self.timings = timings
        self.grid = grid
        self.settings = settings
        self.recordings = recordings
        self.withoutTruth = withoutTruth
        self.scores = scores
        self.passes = passes
    }

    /// The result of a sweep whose every unit (each recording through each of `passes`) is in
    /// `units`, once, in any order (checked by whoever joined them).
    public init(grid: SweepGrid, recordings: [String], withoutTruth: [String], passes: [Range<Int>], units: [SweepUnitScores]) {
        var table = [[SweepScore]](repeating: [SweepScore](repeating: SweepScore(), count: recordings.count), count: grid.settingCount)
        var times = [[InstanceClock.Reading]](repeating: [InstanceClock.Reading](repeating: InstanceClock.Reading(), count: recordings.count),
                                              count: grid.settingCount)
        for unit in units {
            for (setting, score) in zip(passes[unit.pass], unit.scores) { table[setting][unit.recording] = score }
            for (setting, time) in zip(passes[unit.pass], unit.timings ?? []) { times[setting][unit.recording] = time }
        }
        // Times only when every unit was timed: a resumed sweep whose stored units were not has none.
        let timed = !units.isEmpty && units.allSatisfy { $0.timings != nil }
        self.init(grid: grid, settings: grid.settings, recordings: recordings, withoutTruth: withoutTruth, scores: table, passes: passes.count,
                  timings: timed ? times : nil)
    }

    /// Each setting's score pooled over the corpus (``SweepScore/pooled(_:)``), in grid order.
    public var pooled: [SweepScore] { scores.map(SweepScore.pooled) }

    /// Each setting's time summed over the corpus, in grid order; `nil` when not measured.
    public var pooledTimings: [InstanceClock.Reading]? { timings?.map { $0.reduce(InstanceClock.Reading(), +) } }

    /// The index of the best setting by `measure`, pooled; a tie goes to the earlier in grid order.
    /// `nil` when no setting has the measure. Compared as printed (six decimals), so a difference
    /// below what the outputs show never decides.
    public func best(by measure: Measure) -> Int? {
        var best: (index: Int, units: Int64)?
        for (index, score) in pooled.enumerated() {
            guard let value = measure.of(score), let units = FixedDecimal.units(value, decimals: JSONValue.decimals, below: 9e18) else { continue }
            if best == nil || units > best!.units { best = (index, units) }
        }
        return best?.index
    }
}
