import Foundation
import LumaTestSupport
import Testing

/// Man pages (`scripts/make-man`): argument-parser's generator fills a command's discussion into one
/// paragraph, so `scripts/man-examples.py` turns each run of indented example lines into a literal
/// display. Checked on a page as the generator writes it.
@Suite("Man pages keep one example per line")
struct ManPageTests {
    static let script = PackageLayout.root.appendingPathComponent("scripts/man-examples.py").path

    /// The description of `lumatrace replay` as generate-manual writes it: the first text line's
    /// indentation escaped space by space, the next examples indented, then text.
    static let generated = """
        .Sh DESCRIPTION
        \\& \\& lumatrace replay clip.luma -o clip.events.jsonl
          lumatrace replay clip.luma --roi 0,0.5,1,0.5 \\e
            --spacing 0.1
        Without --analyzer every built-in analyzer runs.
        .Bl -tag -width 6n
        .It Ar recording
        The .luma recording.
        """

    @Test("each run of indented lines becomes one literal display, its indentation kept beyond the first two spaces; the text after starts a line of its own")
    func examplesAreDisplays() throws {
        try withScratchFolder("man") { dir in
            let page = "\(dir)/lumatrace.replay.1"
            try Self.generated.write(toFile: page, atomically: true, encoding: .utf8)
            let run = try ProgramRun.run("/usr/bin/env", ["python3", Self.script, page])
            #expect(run.status == 0, "\(run)")
            let lines = try String(contentsOfFile: page, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines == [".Sh DESCRIPTION", ".Bd -literal -offset indent", "lumatrace replay clip.luma -o clip.events.jsonl",
                              "lumatrace replay clip.luma --roi 0,0.5,1,0.5 \\e", "  --spacing 0.1", ".Ed",
                              "Without --analyzer every built-in analyzer runs.", ".Bl -tag -width 6n", ".It Ar recording", "The .luma recording."])
            // Run twice, it changes nothing.
            let once = try String(contentsOfFile: page, encoding: .utf8)
            #expect(try ProgramRun.run("/usr/bin/env", ["python3", Self.script, page]).status == 0)
            #expect(try String(contentsOfFile: page, encoding: .utf8) == once)
        }
    }
}
