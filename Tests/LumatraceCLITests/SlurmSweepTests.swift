import Testing

/// The sharded sweep through a real Slurm cluster: one node, started on this machine by the test
/// (`scripts/slurm/test-sweep`), torn down however it ends.
@Suite("Sharded sweep on Slurm")
struct SlurmSweepTests {
    @Test("Recordings/ in 3 shards through a one-node Slurm cluster: the merge job's outputs are byte-identical to a local sweep")
    func recordingsThroughSlurm() throws {
        // Ports of its own, so that it may run beside the sharded regress's cluster.
        let run = try SlurmScript.run("test-sweep", ["Recordings", "3", "300"], port: 6927)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("outputs identical to a local sweep"), "\(run.stdout)\(run.stderr)")
    }
}
