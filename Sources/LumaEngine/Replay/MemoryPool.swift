import Foundation

/// One memory budget shared by replays that run at once (a regression's goldens on `--jobs`
/// threads): each replay holds its planned bytes (``ReplayMemory``) while it runs, and one that
/// does not fit beside those running waits until they have given enough back.
///
/// A replay that would not fit the whole budget even alone is refused, not kept waiting
/// (``hold(_:plan:instances:)``); so the pool never deadlocks: once nothing is held, any
/// waiting replay fits.
public final class MemoryPool: @unchecked Sendable {
    public let budget: MemoryBudget
    private let condition = NSCondition()
    private var held = 0

    public init(_ budget: MemoryBudget) {
        self.budget = budget
    }

    /// Waits until `bytes` fit beside what is held, and holds them; give them back with
    /// ``release(_:)``. Refused with the memory `plan` would need when `bytes` exceed the
    /// whole budget.
    public func hold(_ bytes: Int, plan: ReplayMemory, instances: Int) throws(MemoryNeed) {
        guard bytes <= budget.bytes else { throw MemoryNeed(plan: plan, instances: instances, neededBytes: bytes, budget: budget) }
        condition.lock()
        defer { condition.unlock() }
        while held + bytes > budget.bytes { condition.wait() }
        held += bytes
    }

    /// Gives back `bytes` held with ``hold(_:plan:instances:)``.
    public func release(_ bytes: Int) {
        condition.lock()
        held -= bytes
        condition.broadcast()
        condition.unlock()
    }

    /// The bytes held now by replays running.
    public var heldBytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return held
    }
}
