import Foundation
import LumaEngine
import LumaFormat
import LumaOutput
import LumaRecording
import LumaRegression
import Testing
import LumaTestSupport

/// The libraries' errors say what is wrong in the words of files, frames and kinds; which command
/// or flag fixes it is the command line's to add (``FlagHints`` in the CLI), so a Python or other
/// caller of a library never reads a `lumatrace` command line it cannot type.
@Suite("Library errors name no command or flag")
struct LibraryErrorWordsTests {
    /// Every kind of file a recording can be mistaken for.
    static let fileKinds: [FileKind] = [
        .empty, .mp4Video, .aviVideo, .matroskaVideo, .gif, .y4mStream, .png, .jpeg, .pgm, .eventLog, .json,
        .text(start: "hello"), .unrecognized(firstBytes: [0xde, 0xad]),
    ]

    struct Failure: Error, CustomStringConvertible { var description: String { "the disk is full" } }

    /// A sample of each library error whose words the command line completes with a hint.
    static var samples: [any Error] {
        fileKinds.map { LumaFormatError.notARecording(path: "clip.mp4", looksLike: $0) }
            + fileKinds.map { LumaFormatError.invalidInput(source: "-", frame: nil, problem: .notY4M(looksLike: $0)) }
            + [LiveAnalysisError.failed(Failure(), framesAnalyzed: 3, recording: "live.luma"),
               RegressionError.recordingNotClosed(path: "toss.luma", log: "toss.events.jsonl"),
               DebugImageWriteError(path: "dump/differencing.pgm", underlying: Failure())]
    }

    /// The subcommands `lumatrace --help` lists.
    static func commands() throws -> [String] {
        let help = try CLI.run(["--help"]).stdout
        guard let start = help.range(of: "SUBCOMMANDS:") else { return [] }
        return help[start.upperBound...].split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  "), let word = line.split(separator: " ").first else { return nil }
            return String(word)
        }
    }

    @Test("no sample library error's text holds a lumatrace command line or a --flag")
    func noCommandOrFlag() throws {
        let commands = try Self.commands()
        #expect(commands.contains("record") && commands.contains("replay"), "\(commands)")
        for error in Self.samples {
            let text = "\(error)"
            #expect(!text.contains("`lumatrace") && !text.contains(" --") && !text.contains("`--"), "\(text)")
            for command in commands {
                #expect(!text.contains("lumatrace \(command)"), "\(text)")
            }
        }
    }

    @Test("a file that looks like a video or an image says so, and the command line adds how to record it")
    func recordHintInTheCLI() throws {
        try withScratchFolder("cli") { dir in
            let cases: [(String, [UInt8], String)] = [
                ("clip.mp4", [0, 0, 0, 0x20] + Array("ftypisom".utf8) + [UInt8](repeating: 0, count: 20),
                 "clip.mp4: not a .luma recording (it looks like an MP4/MOV video); record it first with `lumatrace record VIDEO -o OUT.luma`"),
                ("still.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 24),
                 "still.png: not a .luma recording (it looks like a PNG image); a folder of images is recorded with `lumatrace record FOLDER -o OUT.luma`"),
                ("notes.txt", Array("just some notes\n".utf8),
                 "notes.txt: not a .luma recording (it looks like a text file starting 'just some notes\\n')"),
            ]
            for (name, bytes, message) in cases {
                try Data(bytes).write(to: URL(fileURLWithPath: dir).appendingPathComponent(name))
                let r = try CLI.run(["info", name], cwd: dir)
                #expect(r.status == 2, "\(name): \(r.stderr)")
                #expect(r.stderr == "lumatrace: error: \(message)\n", "\(name): \(r.stderr)")
            }
        }
    }
}
