import Foundation
import Testing
import LumaTestSupport

/// The sharded regress through a real Slurm cluster: one node, started on this machine by the test
/// (`scripts/slurm/test-regress`), torn down however it ends.
@Suite("Sharded regress on Slurm")
struct SlurmRegressTests {
    @Test("Recordings/ in 3 shards through a one-node Slurm cluster: the merge job's report is byte-identical to a local regress")
    func recordingsThroughSlurm() throws {
        for tool in [ExternalTool("slurmctld", debianPackage: "slurm-wlm"), ExternalTool("slurmd", debianPackage: "slurm-wlm"),
                     ExternalTool("munged", debianPackage: "munge")] {
            _ = try tool.require()
        }
        var environment = ProcessInfo.processInfo.environment
        environment["LUMATRACE"] = CLI.binary
        let run = try ProgramRun.run(PackageLayout.root.appendingPathComponent("scripts/slurm/test-regress").path, ["Recordings", "3", "300"],
                                     cwd: PackageLayout.root.path, environment: environment)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("reports identical to a local regress"), "\(run.stdout)\(run.stderr)")
    }
}
