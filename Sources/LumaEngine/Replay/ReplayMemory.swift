import LumaAnalysis
import LumaFormat

/// The memory a replay of a recording is planned to hold, from its frame size and largest chunk:
/// the replay's own (the process, the decoder's buffers) and each analyzer instance's (its
/// declared bytes per frame pixel, `Analyzer/memoryPerPixel(in:)`, and a fixed allowance).
///
/// Measured on 16384×16384 frames (`/usr/bin/time -v`, one frame per chunk): a replay holds
/// about 3.7 bytes per frame pixel before any instance (5.4 while decoding ahead), and each
/// instance its planes. The decoder's part is planned as four decoded chunks (the one lent,
/// the one decoded ahead, the storage recycled, the residual) and two frames (the reference and
/// the intra predictor), whatever `--jobs` is, so that a plan never depends on the thread count.
public struct ReplayMemory: Sendable, Equatable {
    /// The process itself (code, the log kept in memory, small buffers).
    public static let processBytes = 64 << 20
    /// What every instance holds besides its frame-sized buffers (tables, events, a thread's share).
    public static let instanceAllowance = 16 << 20

    public var width: Int
    public var height: Int
    /// The replay's own bytes, before any instance.
    public var replayBytes: Int

    /// A replay of frames `width` × `height` whose largest chunk holds `largestChunkFrames` frames.
    public init(width: Int, height: Int, largestChunkFrames: Int) {
        (self.width, self.height) = (width, height)
        let frame = width * height
        replayBytes = Self.processBytes + 4 * max(1, largestChunkFrames) * frame + 2 * frame
    }

    /// An analysis while recording frames `width` × `height`: `queueFrames` copies of frames
    /// waiting for the analysis, and a replay of one-frame chunks to read frames back when the
    /// queue is full.
    public init(liveWidth width: Int, height: Int, queueFrames: Int) {
        self.init(width: width, height: height, largestChunkFrames: 1)
        replayBytes += queueFrames * width * height
    }

    /// A replay of `reader`'s recording.
    public init(_ reader: RecordingReader) {
        self.init(width: reader.header.width, height: reader.header.height, largestChunkFrames: reader.chunks.map(\.frameCount).max() ?? 1)
    }

    /// The plan for replays of several recordings, one at a time: the largest of each part.
    public static func largest(of replays: [ReplayMemory]) -> ReplayMemory? {
        guard var plan = replays.first else { return nil }
        for r in replays.dropFirst() where r.width * r.height > plan.width * plan.height { (plan.width, plan.height) = (r.width, r.height) }
        plan.replayBytes = replays.map(\.replayBytes).max()!
        return plan
    }

    /// One instance's bytes when it keeps `perPixel` bytes per frame pixel.
    public func instanceBytes(perPixel: Double) -> Int {
        let planes = max(0, perPixel) * Double(width) * Double(height)
        return (planes < 1e18 ? Int(planes.rounded(.up)) : 1 << 60) + Self.instanceAllowance
    }

    /// One instance of `setup`'s bytes (the analyzer's own figure for its configuration; the
    /// protocol's default for an analyzer the registry does not know).
    public func instanceBytes(_ setup: AnalyzerSetup, registry: AnalyzerRegistry) -> Int {
        let descriptor = try? registry.descriptor(named: setup.analyzer)
        return instanceBytes(perPixel: descriptor?.memoryPerPixel(in: setup.configuration) ?? 8)
    }

    /// The replay with every instance of `setups` at once.
    public func neededBytes(_ setups: [AnalyzerSetup], registry: AnalyzerRegistry) -> Int {
        setups.reduce(replayBytes) { $0 + instanceBytes($1, registry: registry) }
    }

    /// How many instances of `eachBytes` fit `budget` beside the replay, at most `limit`; refused
    /// with the memory one needs when none fits.
    public func instancesFitting(_ budget: MemoryBudget, eachBytes: Int, limit: Int) throws(MemoryNeed) -> Int {
        let room = budget.bytes - replayBytes
        guard room >= eachBytes else { throw MemoryNeed(plan: self, instances: 1, neededBytes: replayBytes + eachBytes, budget: budget) }
        return min(limit, room / max(1, eachBytes))
    }

    /// Refuses `setups` at once when they do not fit `budget`, with what they need.
    public func check(_ setups: [AnalyzerSetup], registry: AnalyzerRegistry, budget: MemoryBudget) throws(MemoryNeed) {
        let needed = neededBytes(setups, registry: registry)
        guard needed > budget.bytes else { return }
        throw MemoryNeed(plan: self, instances: setups.count, neededBytes: needed, budget: budget)
    }
}

/// A run that would need more memory than its budget: what it would need, for how many analyzer
/// instances on frames of what size.
public struct MemoryNeed: Error, Sendable, Equatable, CustomStringConvertible {
    public var plan: ReplayMemory
    public var instances: Int
    public var neededBytes: Int
    public var budget: MemoryBudget

    public init(plan: ReplayMemory, instances: Int, neededBytes: Int, budget: MemoryBudget) {
        (self.plan, self.instances, self.neededBytes, self.budget) = (plan, instances, neededBytes, budget)
    }

    public var description: String {
        let each = instances == 1 ? "" : ", \(MemoryBudget.words((neededBytes - plan.replayBytes) / instances)) per instance"
        return "\(instances == 1 ? "one analyzer instance" : "\(instances) analyzer instances") on \(plan.width)x\(plan.height) frames "
            + "would need about \(MemoryBudget.words(neededBytes)) (\(MemoryBudget.words(plan.replayBytes)) to decode\(each)), "
            + "over the memory budget of \(budget); set \(MemoryBudget.variable) higher (e.g. \(MemoryBudget.variable)="
            + "\((neededBytes + (1 << 30) - 1) >> 30)G) if the machine has it"
            + (instances > 1 ? ", or run fewer instances" : "")
    }
}
