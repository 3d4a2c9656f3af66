/// Which goldens each of N shards replays, so that shards take about the same time: longest first,
/// each to the shard with the least work so far (ties: the lower shard), then, while it shortens
/// the heaviest shard, a golden moved from it to the lightest or swapped for a smaller one there.
/// The plan depends only on the costs, never on timing or the machine, so every shard computes the
/// same one on its own.
public struct ShardPlan: Sendable, Equatable {
    /// Golden indices per shard, each list ascending.
    public var shards: [[Int]]
    /// Total cost per shard.
    public var loads: [Int]

    /// Assigns goldens of `costs` to `count` shards (count ≥ 1).
    public init(costs: [Int], shards count: Int) {
        precondition(count >= 1, "a plan needs at least one shard")
        var shards = [[Int]](repeating: [], count: count)
        var loads = [Int](repeating: 0, count: count)
        // Longest first; equal costs in listing order.
        let order = costs.indices.sorted { costs[$0] != costs[$1] ? costs[$0] > costs[$1] : $0 < $1 }
        for golden in order {
            var lightest = 0
            for s in 1..<count where loads[s] < loads[lightest] { lightest = s }
            shards[lightest].append(golden)
            loads[lightest] += costs[golden]
        }
        Self.rebalance(&shards, &loads, costs: costs)
        self.shards = shards.map { $0.sorted() }
        self.loads = loads
    }

    /// Moves or swaps goldens between the heaviest and the lightest shard while that lowers the
    /// heavier of the two; stops at the first pair it cannot improve.
    private static func rebalance(_ shards: inout [[Int]], _ loads: inout [Int], costs: [Int]) {
        guard shards.count > 1 else { return }
        for _ in 0..<(16 * costs.count + 16) {
            var (a, b) = (0, 0)
            for s in loads.indices {
                if loads[s] > loads[a] { a = s }
                if loads[s] < loads[b] { b = s }
            }
            // The best move (x from a to b) or swap (x from a for a smaller y of b).
            var best: (peak: Int, x: Int, y: Int?)?
            for x in shards[a] {
                for y in [nil] + shards[b].map(Optional.some) {
                    let delta = costs[x] - (y.map { costs[$0] } ?? 0)
                    guard delta > 0 else { continue }
                    let peak = max(loads[a] - delta, loads[b] + delta)
                    if peak < loads[a], peak < best?.peak ?? .max { best = (peak, x, y) }
                }
            }
            guard let (_, x, y) = best else { return }
            shards[a].removeAll { $0 == x }
            shards[b].append(x)
            loads[a] -= costs[x]
            loads[b] += costs[x]
            if let y {
                shards[b].removeAll { $0 == y }
                shards[a].append(y)
                loads[b] -= costs[y]
                loads[a] += costs[y]
            }
        }
    }

    /// The largest shard's load: the time the whole run takes, in cost units.
    public var makespan: Int { loads.max() ?? 0 }

    /// The ideal: the total cost spread evenly over the shards (no plan can do better; none can do
    /// better than the largest golden either).
    public static func ideal(costs: [Int], shards count: Int) -> Double {
        Double(costs.reduce(0, +)) / Double(count)
    }
}
