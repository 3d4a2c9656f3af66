import ArgumentParser
import LumaBase
import LumaFormat
import LumaRegression

struct Recover: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rebuild a recording that was not closed (killed recorder, full disk) or is damaged.",
        discussion: """
            Chunks are found through the index and by scanning every record; each intact chunk is
            kept byte for byte, an incomplete chunk at the end is cut off and damaged chunks are left
            out (replays then log them as a gap). A damaged header or reference frame is written
            back from its intact copy. The result is written next to the output, read back, and
            replaces the recording only if it holds at least every frame the recording could be read
            for; otherwise nothing changes and recover exits non-zero saying what it could keep.
              lumatrace recover crashed.luma                 # in place
              lumatrace recover crashed.luma -o fixed.luma   # leave the original untouched
            """)

    @Argument(help: "The .luma recording: a file (a recording on a web server is read, not rebuilt: download it first).", completion: Completions.recording)
    var recording: String

    @Option(name: .shortAndLong, help: "Write the recovered recording here instead of in place.")
    var output: String?

    @OptionGroup var replacing: ReplaceOutputOption

    func run() throws {
        try reportingErrors {
            if ByteSources.isURL(recording) {
                throw UsageError("\(RecordingLocation(recording)) is a URL: recover rebuilds a file in place or into -o; download the recording first (curl -o clip.luma URL), then recover the file")
            }
            let report = try RecordingRecovery.recover(recording, output: output, overwrite: replacing.replacesExisting)
            if report.wasIntact {
                print("\(recording): intact (indexed, every chunk decodes); nothing to do")
                return
            }
            // Damage that cost frames; a damaged header or reference copy is repaired instead.
            for d in report.damage where d.frames.map({ !$0.isEmpty }) ?? true { print("left out: \(FlagHints.message(for: d))") }
            if report.restoredHeader { print("restored: the file header, from its copy") }
            print("\(output ?? recording): kept \(Plural.count(report.framesKept, "frame")) in \(Plural.count(report.chunksKept, "chunk")) (the recording could be read for \(report.framesBefore)), format version \(report.formatVersion), index rewritten, \(report.originalSize) -> \(report.fileSize) bytes")
        }
    }
}
