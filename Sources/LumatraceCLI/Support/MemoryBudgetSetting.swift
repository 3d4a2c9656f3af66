import LumaEngine

/// The memory budget of this run (`LUMATRACE_MEMORY_BUDGET`, else 4 GiB); a value that is not a
/// memory size is a usage error naming the variable.
func memoryBudget() throws -> MemoryBudget {
    do throws(MemoryBudgetError) { return try MemoryBudget.fromEnvironment() } catch { throw UsageError(error) }
}
