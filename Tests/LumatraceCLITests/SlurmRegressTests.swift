import Testing

/// The sharded regress through a real Slurm cluster: one node, started on this machine by the test
/// (`scripts/slurm/test-regress`), torn down however it ends.
@Suite("Sharded regress on Slurm")
struct SlurmRegressTests {
    @Test("Recordings/ in 3 shards through a one-node Slurm cluster: the merge job's report is byte-identical to a local regress")
    func recordingsThroughSlurm() throws {
        let run = try SlurmScript.run("test-regress", ["Recordings", "3", "300"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("reports identical to a local regress"), "\(run.stdout)\(run.stderr)")
    }
}
