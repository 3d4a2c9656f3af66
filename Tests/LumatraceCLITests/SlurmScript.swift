import Foundation
import LumaTestSupport

/// A test script of `scripts/slurm` (`test-regress`, `test-sweep`) that starts a one-node Slurm
/// cluster on this machine, runs through it and tears it down: the tools it needs are required
/// first (a missing one fails the test with its install command).
enum SlurmScript {
    /// Runs `scripts/slurm/NAME ARGUMENTS` with this build's lumatrace; `port` gives its cluster
    /// ports of its own, so that two such tests may run side by side.
    static func run(_ name: String, _ arguments: [String], port: Int? = nil) throws -> ProgramResult {
        for tool in [ExternalTool("slurmctld", debianPackage: "slurm-wlm"), ExternalTool("slurmd", debianPackage: "slurm-wlm"),
                     ExternalTool("munged", debianPackage: "munge")] {
            _ = try tool.require()
        }
        var environment = ProcessInfo.processInfo.environment
        environment["LUMATRACE"] = CLI.binary
        if let port { environment["LUMATRACE_SLURM_PORT"] = String(port) }
        return try ProgramRun.run(PackageLayout.root.appendingPathComponent("scripts/slurm/" + name).path, arguments,
                                  cwd: PackageLayout.root.path, environment: environment)
    }
}
