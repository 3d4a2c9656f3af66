import Foundation

/// How many rounds a test that repeats itself runs (kills at seeded points, racing writers,
/// signals): a few in the quick run (`swift test`, CI), as many as an environment variable asks in
/// the long one (`LUMATRACE_KILLS=50 swift test --filter CrashSafety`).
public enum TestRounds {
    /// The whole number in the environment variable `variable`, or `quick` when it holds none.
    public static func count(_ variable: String, quick: Int) -> Int {
        Int(ProcessInfo.processInfo.environment[variable] ?? "") ?? quick
    }
}
