import ArgumentParser
import LumaFormat

struct Recover: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rewrite the index of a recording that was not closed (killed recorder, full disk) or is damaged.",
        discussion: """
            Every intact chunk is kept byte for byte; an incomplete chunk at the end is cut off and
            damaged chunks are left out of the index (replays then log them as a gap).
              lumatrace recover crashed.luma                 # in place
              lumatrace recover crashed.luma -o fixed.luma   # leave the original untouched
            """)

    @Argument(help: "The .luma recording.")
    var recording: String

    @Option(name: .shortAndLong, help: "Write the recovered recording here instead of in place.")
    var output: String?

    @Flag(help: "Overwrite OUTPUT if it exists.")
    var force = false

    func run() throws {
        try reportingErrors {
            let report = try RecordingRecovery.recover(recording, output: output, overwrite: force)
            if report.wasIntact {
                print("\(recording): intact (indexed, every chunk decodes); nothing to do")
                return
            }
            for d in report.damage { print("left out: \(d)") }
            print("\(output ?? recording): \(report.framesKept) frames in \(report.chunksKept) chunks kept, \(report.bytesCut) bytes cut from the end, index rewritten (\(report.fileSize) bytes)")
        }
    }
}
