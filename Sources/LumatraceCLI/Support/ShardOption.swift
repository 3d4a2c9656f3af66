import ArgumentParser
import Foundation

/// Which share of a corpus one `regress` or `sweep` process runs: shard K of N, K counted from 0 as Slurm
/// array ids and Kubernetes completion indexes are.
struct ShardSelection: Equatable {
    var index: Int
    var count: Int

    /// Reads `--shard` as given: `K/N`; `auto` (K and N from a Slurm job array); `auto/N` (K from
    /// Slurm's or a Kubernetes Indexed Job's environment). A bad value is refused naming the option
    /// and, for `auto`, the variables it looked for.
    init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2, let first = parts.first else { throw Self.invalid(text) }
        if first == "auto" {
            let slurm = try Self.wholeNumber("SLURM_ARRAY_TASK_ID", in: environment, for: text)
            let kubernetes = try Self.wholeNumber("JOB_COMPLETION_INDEX", in: environment, for: text)
            guard let id = slurm ?? kubernetes else {
                throw ValidationError("--shard \(text): neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor JOB_COMPLETION_INDEX "
                    + "(a Kubernetes Indexed Job) is set; outside those, give the shard as K/N, e.g. --shard 0/3")
            }
            // Slurm numbers a job array from its first index (`--array=1-3` gives 1, 2, 3), by its
            // step (`--array=0-4:2` gives 0, 2, 4): the shard is the task's place in that list.
            let minimum = try slurm == nil ? 0 : Self.wholeNumber("SLURM_ARRAY_TASK_MIN", in: environment, for: text) ?? 0
            let step = try slurm == nil ? 1 : Self.wholeNumber("SLURM_ARRAY_TASK_STEP", in: environment, for: text) ?? 1
            guard step >= 1, (id - minimum) % step == 0 else {
                throw ValidationError("--shard \(text): SLURM_ARRAY_TASK_ID \(id) is not SLURM_ARRAY_TASK_MIN \(minimum) plus a multiple of SLURM_ARRAY_TASK_STEP \(step)")
            }
            index = (id - minimum) / step
            if parts.count == 2 {
                guard let n = Int(parts[1]) else { throw Self.invalid(text) }
                count = n
            } else {
                guard slurm != nil, let n = try Self.wholeNumber("SLURM_ARRAY_TASK_COUNT", in: environment, for: text) else {
                    throw ValidationError("--shard auto needs SLURM_ARRAY_TASK_COUNT (a Slurm job array); "
                        + "with a Kubernetes Indexed Job give the count: --shard auto/N")
                }
                count = n
            }
        } else {
            guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else { throw Self.invalid(text) }
            (index, count) = (k, n)
        }
        guard count >= 1, count <= 100_000 else {
            throw ValidationError("--shard \(text): the shard count \(count) is outside 1...100000")
        }
        guard (0..<count).contains(index) else {
            throw ValidationError("--shard \(text): the shard index \(index) is outside 0...\(count - 1) (shards count from 0)")
        }
    }

    /// The whole number the environment variable `name` holds, `nil` when it is not set; one set to
    /// anything else is refused naming it.
    private static func wholeNumber(_ name: String, in environment: [String: String], for text: String) throws -> Int? {
        guard let value = environment[name] else { return nil }
        guard let number = Int(value), abs(number) <= 1 << 40 else {
            throw ValidationError("--shard \(text): \(name)='\(value)' is not a whole number")
        }
        return number
    }

    private static func invalid(_ text: String) -> ValidationError {
        ValidationError("--shard '\(text)' is not K/N (shard K of N, K from 0, e.g. 0/3), auto or auto/N")
    }
}
