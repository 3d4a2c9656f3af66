import LumaBase
import ArgumentParser
import LumaRegression
import LumaSynth

/// `lumatrace-bench sharding`: how evenly `regress --shard` spreads a corpus, on paper.
struct ShardingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sharding",
        abstract: "How evenly `regress --shard` spreads a corpus over N shards: the assignment's makespan against the ideal (on paper: costs only, nothing is replayed).",
        discussion: """
            Draws a corpus description with a fixed seed: RECORDINGS recordings whose frame counts \
            are long-tailed (one minute at 30 frames/s, some up to ten: 1800 × (1 + 9u⁴) frames), \
            one analyzer each. For N = 1, 2, 4, … up to --max-shards it makes the plan every shard \
            makes (ShardPlan, the code `regress --shard` runs) and prints the makespan (the largest \
            shard's frames) ÷ the ideal (all frames ÷ N), and the largest shard's share of the whole. \
            The target (issue 18): within 5% of ideal whenever there are at least 4 recordings per \
            shard.

            Example:
              Benchmarks/run sharding --recordings 10000
            """)

    @Option(help: "Recordings in the corpus (1...1000000).")
    var recordings = 10_000

    @Option(help: "Seed of the corpus description.")
    var seed: UInt64 = 1

    @Option(help: "Largest shard count tried (1...65536); counts are powers of 2 up to it.")
    var maxShards = 1024

    func validate() throws {
        guard (1...1_000_000).contains(recordings) else { throw ValidationError("--recordings \(recordings) is outside 1...1000000") }
        guard (1...65_536).contains(maxShards) else { throw ValidationError("--max-shards \(maxShards) is outside 1...65536") }
    }

    func run() throws {
        var random = SeededRandom(seed: seed, stream: "corpus")
        let costs = (0..<recordings).map { _ -> Int in
            let u = random.unit()
            return Int(1800 * (1 + 9 * u * u * u * u))
        }
        let total = costs.reduce(0, +)
        print("== sharding: \(recordings) recordings, \(total) frames (seed \(seed)); longest \(costs.max() ?? 0), shortest \(costs.min() ?? 0) frames")
        var rows = [["shards", "recordings/shard", "makespan ÷ ideal", "largest shard's share", "target"]]
        var failures: [Int] = []
        var shards = 1
        while shards <= maxShards {
            let plan = ShardPlan(costs: costs, shards: shards)
            let ratio = Double(plan.makespan) / ShardPlan.ideal(costs: costs, shards: shards)
            let judged = recordings >= 4 * shards
            if judged, ratio > 1.05 { failures.append(shards) }
            rows.append(["\(shards)", fixed(Double(recordings) / Double(shards), 1), fixed(ratio, 4),
                         fixed(Double(plan.makespan) / Double(total), 5), judged ? (ratio <= 1.05 ? "PASS ≤ 1.05" : "FAIL > 1.05") : "(< 4 per shard)"])
            shards *= 2
        }
        for line in aligned(rows, rightAligned: [0, 1, 2, 3]) { print("   " + line) }
        print(failures.isEmpty ? "target: makespan within 5% of ideal at every N with ≥ 4 recordings per shard: PASS"
              : "target: FAIL at N = " + failures.map(String.init).joined(separator: ", "))
        if !failures.isEmpty { throw ExitCode(1) }
    }
}
