import DifferencingAnalyzer
import Foundation
import Synchronization
import LumaAnalysis
import LumaEngine
import LumaFormat
import LumaTestSupport
import Testing

/// The memory a run plans by: `LUMATRACE_MEMORY_BUDGET` (4 GiB unless set), each analyzer's
/// declared bytes per frame pixel, and a replay refused before it starts when its instances do not fit.
@Suite("Memory budget")
struct MemoryBudgetTests {
    @Test("the budget is 4 GiB unless LUMATRACE_MEMORY_BUDGET gives bytes, or a whole number with K, M, G or T (powers of 1024)")
    func parsing() throws {
        #expect(try MemoryBudget.fromEnvironment([:]) == MemoryBudget(bytes: 4 << 30))
        for (text, bytes) in [("8G", 8 << 30), ("8g", 8 << 30), ("512M", 512 << 20), ("6GiB", 6 << 30), ("2T", 2 << 40),
                              ("1073741824", 1 << 30), ("1048576K", 1 << 30), (" 3G ", 3 << 30)] {
            #expect(try MemoryBudget.fromEnvironment(["LUMATRACE_MEMORY_BUDGET": text]).bytes == bytes, "\(text)")
        }
        for text in ["", "lots", "-1", "0", "1.5G", "4X", "1K", "G", "99999999999999999999", "2000T", "+4G", "4 G", "0x10G"] {
            let refusal = #expect(throws: MemoryBudgetError.self, "\(text)") { try MemoryBudget(parsing: text) }
            #expect(refusal?.description.hasPrefix("LUMATRACE_MEMORY_BUDGET='\(text)' is not a memory size") == true, "\(String(describing: refusal))")
        }
        #expect(MemoryBudget(bytes: 4 << 30).description == "4 GiB" && MemoryBudget(bytes: 3 << 29).description == "1.5 GiB")
        #expect(MemoryBudget(bytes: 512 << 20).description == "512 MiB")
    }

    @Test("a replay plans four decoded chunks, two frames and the process, and per instance its declared bytes per pixel and an allowance")
    func plan() throws {
        let plan = ReplayMemory(width: 16384, height: 16384, largestChunkFrames: 1)
        let frame = 16384 * 16384
        #expect(plan.replayBytes == ReplayMemory.processBytes + 6 * frame)
        let differencing = try AnalyzerSetup.resolve(testRegistry.descriptor(named: "differencing"), overrides: [])
        #expect(plan.instanceBytes(differencing, registry: testRegistry) == 3 * frame + ReplayMemory.instanceAllowance)
        let background = try AnalyzerSetup.resolve(testRegistry.descriptor(named: "differencing"), overrides: [("mode", "background")])
        #expect(plan.instanceBytes(background, registry: testRegistry) == 4 * frame + ReplayMemory.instanceAllowance)
        // An analyzer that says nothing is planned at the protocol's default.
        let probe = try AnalyzerSetup.resolve(testRegistry.descriptor(named: BrightnessProbe.name), overrides: [])
        #expect(plan.instanceBytes(probe, registry: testRegistry) == 8 * frame + ReplayMemory.instanceAllowance)
        // Eight differencing settings on 16384² frames fit the default budget three at a time.
        let each = plan.instanceBytes(differencing, registry: testRegistry)
        #expect(try plan.instancesFitting(.standard, eachBytes: each, limit: 64) == 3)
        #expect(try plan.instancesFitting(MemoryBudget(bytes: plan.replayBytes + each), eachBytes: each, limit: 64) == 1)
        #expect(try plan.instancesFitting(MemoryBudget(bytes: 1 << 50), eachBytes: each, limit: 64) == 64)
        let refusal = #expect(throws: MemoryNeed.self) { try plan.instancesFitting(MemoryBudget(bytes: 1 << 30), eachBytes: each, limit: 64) }
        #expect(refusal?.neededBytes == plan.replayBytes + each)
        #expect(refusal?.description == "one analyzer instance on 16384x16384 frames would need about 2.33 GiB (1.56 GiB to decode), "
            + "over the memory budget of 1 GiB; set LUMATRACE_MEMORY_BUDGET higher (e.g. LUMATRACE_MEMORY_BUDGET=3G) if the machine has it")
    }

    @Test("a replay whose instances do not fit the budget is refused before anything is written, with the memory it would need")
    func replayOverBudget() throws {
        let recording = try makeMovingSquare()
        let reader = try RecordingReader(path: recording)
        let descriptor = try testRegistry.descriptor(named: "differencing")
        let setups = try (1...3).map { try AnalyzerSetup.resolve(descriptor, instance: "d\($0)", overrides: []) }
        let plan = ReplayMemory(reader)
        let needed = plan.neededBytes(setups, registry: testRegistry)
        try withScratchFolder("memory") { dir in
            var options = ReplayOptions()
            options.memoryBudget = MemoryBudget(bytes: needed - 1)
            let refusal = #expect(throws: ReplayError.self) {
                try Replay.run(reader, setups: setups, registry: testRegistry, options: options, logPath: dir + "/out.jsonl")
            }
            #expect(refusal == .memory(recording: reader.fileName, MemoryNeed(plan: plan, instances: 3, neededBytes: needed, budget: MemoryBudget(bytes: needed - 1))))
            #expect(refusal?.description.contains("3 analyzer instances on 64x48 frames would need about") == true, "\(String(describing: refusal))")
            #expect(!FileManager.default.fileExists(atPath: dir + "/out.jsonl"))
            options.memoryBudget = MemoryBudget(bytes: needed)
            _ = try Replay.run(reader, setups: setups, registry: testRegistry, options: options, logPath: dir + "/out.jsonl")
            #expect(FileManager.default.fileExists(atPath: dir + "/out.jsonl"))
        }
    }

    @Test("replays sharing a pool never hold more than its budget together, and one that needs more than the whole budget is refused at once")
    func poolKeepsReplaysWithinBudget() throws {
        let plan = ReplayMemory(width: 64, height: 48, largestChunkFrames: 1)
        let pool = MemoryPool(MemoryBudget(bytes: 10 << 20))
        #expect(throws: MemoryNeed(plan: plan, instances: 1, neededBytes: (10 << 20) + 1, budget: pool.budget)) {
            try pool.hold((10 << 20) + 1, plan: plan, instances: 1)
        }
        // Twelve replays of 4 MiB on four threads: at most two fit at once.
        let most = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 12) { _ in
            try! pool.hold(4 << 20, plan: plan, instances: 1)
            most.withLock { $0 = max($0, pool.heldBytes) }
            pool.release(4 << 20)
        }
        #expect(most.withLock { $0 } <= 10 << 20)
        #expect(pool.heldBytes == 0)
    }
}
