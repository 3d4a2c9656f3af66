import ArgumentParser
import TrajectoryAnalyzer

/// The child process of the trajectory benchmark's memory measurement (not for people: the
/// `trajectory` subcommand starts it and reads its JSON line).
struct MemoryChildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: TrajectoryBench.childCommand,
        abstract: "Streams FRAMES frames of a gray .y4m (looped) through one trajectory analyzer of a design and prints its memory.",
        shouldDisplay: false)

    @Argument(help: "A gray (C mono) YUV4MPEG2 file.")
    var y4m: String

    @Argument(help: "How many frames to analyze, rewinding the file at its end.")
    var frames: Int

    @Option(help: ArgumentHelp("The analyzer's design: \(TrajectoryBench.designs.map(\.rawValue).joined(separator: " or ")).", valueName: "design"))
    var design = TrajectoryConfiguration().design.rawValue

    func validate() throws {
        guard frames > 0 else { throw ValidationError("FRAMES needs a whole number ≥ 1, got \(frames)") }
        guard TrajectoryConfiguration.Design(rawValue: design) != nil else {
            throw ValidationError("--design \(design): no such design; it is \(TrajectoryBench.designs.map(\.rawValue).joined(separator: " or "))")
        }
    }

    func run() throws {
        let status = TrajectoryBench.child(path: y4m, total: frames, design: TrajectoryConfiguration.Design(rawValue: design)!)
        if status != 0 { throw ExitCode(status) }
    }
}
