import LumaAnalysis

// The seams between the window design's three stages: candidates (where a ball may be), the
// association (candidates into flights) and the confidence (how likely a flight is a ball). Each is
// a protocol, so that a stage can be measured alone, swapped, and compared with another on the same
// input; ``WindowStages`` wires one of each, its own by default.

/// The first stage of the trajectory analyzer: where, in one frame, a ball may be. Whatever finds
/// them, candidates are one value (``Candidate``), best first, so any candidate stage can feed the
/// stages after it (``WindowStages`` links them into flights and judges them): a stage can be
/// measured on its own, swapped, and compared with another on the same frames.
protocol CandidateStage {
    /// The candidates of `frame`, best first. Called once per analyzed frame, in order: a stage may
    /// keep a background or other state from the frames before.
    mutating func candidates(in frame: Frame) -> [Candidate]
}

extension DiscCandidateFinder: CandidateStage {
    mutating func candidates(in frame: Frame) -> [Candidate] { find(frame) }
}

/// The second stage: one frame's candidates into flights, several at once, each ending with a
/// reason. ``FlightFinder`` is the window design's; another associator (a frame-by-frame tracker,
/// a different window) slots in behind the same seam, fed by any ``CandidateStage`` and judged by
/// any ``PathConfidence``.
protocol Associator {
    /// Takes the candidates of one analyzed frame (best first); returns the flights whose end became
    /// clear in it.
    mutating func advance(frame: Int, time: Double, candidates: [Candidate]) -> [FlightFinder.Ended]
    /// Ends every open flight (the recording is over).
    mutating func finish() -> [FlightFinder.Ended]
    /// Gives flight `serial` the ordinal of its id, once it is first reported.
    mutating func markReported(serial: Int, ordinal: Int)
    /// The open flights, each with whether it gained a point in the last frame.
    var flights: [Flight] { get }
    /// The clip's gravity as the flights found so far show it, frame pixels per second²; nil until known.
    var clipGravity: Double? { get }
}

extension FlightFinder: Associator {
    var clipGravity: Double? { gravity.estimate }
}

/// The third stage: how likely a flight is a ball in flight, 0…1, from its geometry and what its
/// appearance says (``ClipAppearance/Evidence``). ``FlightConfidence`` is the window design's.
protocol PathConfidence {
    /// The geometric factors alone, each 0…1, against the clip's gravity if known.
    func geometric(_ flight: Flight, clipGravity: Double?) -> FlightConfidence.Geometry
    /// The flight's confidence: its geometry, times what its appearance says.
    func confidence(_ flight: Flight, clipGravity: Double?, evidence: ClipAppearance.Evidence) -> Double
}

extension FlightConfidence: PathConfidence {}
