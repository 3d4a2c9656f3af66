import LumaRegression
import LumaTestSupport
import Testing

@Suite("Shard plans: every golden once, balanced, the same on every machine")
struct ShardPlanTests {
    /// Long-tailed costs, seeded: frame counts of one-minute recordings at 30 frames/s, a few of
    /// them up to ten minutes long (1800 × (1 + 9u⁴)).
    static func costs(_ count: Int, seed: UInt64) -> [Int] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            let u = generator.unit()
            return Int(1800 * (1 + 9 * u * u * u * u))
        }
    }

    @Test("each golden is in exactly one shard, and the plan depends only on the costs", arguments: [1, 2, 3, 7, 64])
    func partition(shards: Int) {
        let costs = Self.costs(100, seed: 3)
        let plan = ShardPlan(costs: costs, shards: shards)
        #expect(plan.shards.count == shards)
        #expect(plan.shards.flatMap { $0 }.sorted() == Array(costs.indices))
        #expect(plan == ShardPlan(costs: costs, shards: shards))
        #expect(plan.loads == plan.shards.map { $0.reduce(0) { $0 + costs[$1] } })
    }

    @Test("with at least 4 goldens per shard, the largest shard is within 5% of the ideal", arguments: [2, 8, 32, 128, 256])
    func balanced(shards: Int) {
        let costs = Self.costs(4 * shards + 3, seed: UInt64(shards))
        let plan = ShardPlan(costs: costs, shards: shards)
        let ideal = ShardPlan.ideal(costs: costs, shards: shards)
        #expect(Double(plan.makespan) <= 1.05 * ideal, "makespan \(plan.makespan), ideal \(ideal)")
    }

    @Test("more shards than goldens leaves some shards empty, never splits a golden")
    func moreShardsThanGoldens() {
        let plan = ShardPlan(costs: [5, 3], shards: 4)
        #expect(plan.shards.flatMap { $0 }.sorted() == [0, 1])
        #expect(plan.shards.filter(\.isEmpty).count == 2)
    }
}
