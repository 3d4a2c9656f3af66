import Foundation
import Testing
import LumaTestSupport

/// The sharded sweep through a real Slurm cluster: one node, started on this machine by the test
/// (`scripts/slurm/test-sweep`), torn down however it ends.
@Suite("Sharded sweep on Slurm")
struct SlurmSweepTests {
    @Test("Recordings/ in 3 shards through a one-node Slurm cluster: the merge job's outputs are byte-identical to a local sweep")
    func recordingsThroughSlurm() throws {
        for tool in [ExternalTool("slurmctld", debianPackage: "slurm-wlm"), ExternalTool("slurmd", debianPackage: "slurm-wlm"),
                     ExternalTool("munged", debianPackage: "munge")] {
            _ = try tool.require()
        }
        var environment = ProcessInfo.processInfo.environment
        environment["LUMATRACE"] = CLI.binary
        // Ports of its own, so that it may run beside the sharded regress's cluster.
        environment["LUMATRACE_SLURM_PORT"] = "6927"
        let run = try ProgramRun.run(PackageLayout.root.appendingPathComponent("scripts/slurm/test-sweep").path, ["Recordings", "3", "300"],
                                     cwd: PackageLayout.root.path, environment: environment)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("outputs identical to a local sweep"), "\(run.stdout)\(run.stderr)")
    }
}
