import ArgumentParser

struct Synth: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Make a synthetic scene recording with ground truth (coming with LumaSynth).")
    func run() throws { throw CLIError("synth is not built yet") }
}
