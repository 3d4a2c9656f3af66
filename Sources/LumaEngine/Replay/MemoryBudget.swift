import Foundation
import LumaBase

/// The memory a run may plan to use: 4 GiB unless `LUMATRACE_MEMORY_BUDGET` says otherwise.
///
/// A sweep runs as many analyzer instances over one decode of a recording as fit it (a pass),
/// and a replay whose instances do not fit is refused before it starts (``ReplayMemory``). The
/// budget is what the run plans by, from each analyzer's declared memory per frame pixel; it is
/// not a limit the kernel enforces.
public struct MemoryBudget: Sendable, Equatable, CustomStringConvertible {
    public var bytes: Int

    public init(bytes: Int) { self.bytes = bytes }

    /// 4 GiB (4,294,967,296 bytes).
    public static let standard = MemoryBudget(bytes: 4 << 30)
    /// The environment variable that sets the budget.
    public static let variable = "LUMATRACE_MEMORY_BUDGET"
    /// The largest budget that can be written (1 PiB): far above any machine, far below overflow.
    public static let largest = 1 << 50

    /// Reads a budget: a whole number of bytes, or one followed by `K`, `M`, `G` or `T` (powers of
    /// 1024, either case; a trailing `B` or `iB` allowed), e.g. `8G`, `512M`, `6442450944`. At least
    /// 1 MiB, at most 1 PiB.
    public init(parsing text: String) throws(MemoryBudgetError) {
        var digits = Substring(text.trimmingCharacters(in: .whitespaces))
        for suffix in ["iB", "ib", "B", "b"] where digits.hasSuffix(suffix) && digits.count > suffix.count {
            digits = digits.dropLast(suffix.count)
            break
        }
        var shift = 0
        if let last = digits.last, let index = "KMGT".firstIndex(of: Character(last.uppercased())) {
            shift = 10 * ("KMGT".distance(from: "KMGT".startIndex, to: index) + 1)
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let value = Int(digits),
              value <= Self.largest >> shift, value << shift >= 1 << 20 else {
            throw MemoryBudgetError(text: text)
        }
        bytes = value << shift
    }

    /// The budget `LUMATRACE_MEMORY_BUDGET` sets in `environment`, or ``standard`` when it is not set.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(MemoryBudgetError) -> MemoryBudget {
        guard let text = environment[variable] else { return .standard }
        return try MemoryBudget(parsing: text)
    }

    /// The budget as people read it (`4 GiB`, `1.5 GiB`, `512 MiB`).
    public var description: String { MemoryBudget.words(bytes) }

    /// `bytes` in GiB with at most two decimals, or in whole MiB below 1 GiB.
    public static func words(_ bytes: Int) -> String {
        if bytes < 1 << 30 { return "\(max(1, (bytes + (1 << 19)) >> 20)) MiB" }
        let hundredths = (bytes / (1 << 20) * 100 + 512) >> 10
        let text = hundredths % 100 == 0 ? "\(hundredths / 100)" : String(format: "%d.%02d", hundredths / 100, hundredths % 100)
        return (text.hasSuffix("0") && text.contains(".") ? String(text.dropLast()) : text) + " GiB"
    }
}

/// A `LUMATRACE_MEMORY_BUDGET` that is not a memory size.
public struct MemoryBudgetError: Error, Sendable, Equatable, CustomStringConvertible {
    public var text: String

    public var description: String {
        "\(MemoryBudget.variable)='\(text)' is not a memory size: give bytes, or a whole number with K, M, G or T "
            + "(powers of 1024), from 1M to 1024T, e.g. \(MemoryBudget.variable)=8G"
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
