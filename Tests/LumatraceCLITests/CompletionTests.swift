import Foundation
import LumaTestSupport
import Testing

/// Shell completion, driven as bash drives it: the script `lumatrace --generate-completion-script bash`
/// prints is sourced, and its completion function is called with the words typed so far, as bash
/// calls it on TAB; what it leaves in `COMPREPLY` is what the user is offered.
@Suite("Shell completion: analyzer names, settings and files of the right kind (bash, driven as bash does)")
struct CompletionTests {
    /// What bash offers after `words` (the last one being completed), in the folder `dir`.
    static func offered(_ words: [String], in dir: String) throws -> [String] {
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let driver = """
            source ./lumatrace.bash
            COMP_WORDS=(\(quoted)); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
            _lumatrace "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        // The script asks the `lumatrace` on the PATH for the analyzer names: this build's.
        let folder = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path
        let path = folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let run = try ProgramRun.run("/bin/bash", ["--norc", "-c", driver], cwd: dir, environment: ["PATH": path, "HOME": dir])
        guard run.status == 0 else { throw CLI.Failure(description: "bash: \(run)") }
        return run.stdout.split(separator: "\n").map(String.init).sorted()
    }

    @Test("--analyzer completes analyzer names, --set their NAME. and then NAME.KEY=, recordings and logs complete as files of their kind")
    func completes() throws {
        try withScratchFolder("completion") { dir in
            let script = try CLI.run(["--generate-completion-script", "bash"])
            try #require(script.status == 0, "\(script.stderr)")
            try script.stdout.write(toFile: "\(dir)/lumatrace.bash", atomically: true, encoding: .utf8)
            for file in ["clip.luma", "clip.events.jsonl", "clip.truth.json", "notes.txt"] {
                FileManager.default.createFile(atPath: "\(dir)/\(file)", contents: Data())
            }
            #expect(try Self.offered(["lumatrace", "replay", "clip.luma", "--analyzer", "tr"], in: dir) == ["tracking", "trajectory"])
            #expect(try Self.offered(["lumatrace", "replay", "clip.luma", "--analyzer", ""], in: dir)
                    == ["differencing", "external", "rectangles", "tracking", "trajectory"])
            #expect(try Self.offered(["lumatrace", "replay", "clip.luma", "--set", "diff"], in: dir) == ["differencing."])
            let keys = try Self.offered(["lumatrace", "replay", "clip.luma", "--set", "trajectory.trajectoryL"], in: dir)
            #expect(keys == ["trajectory.trajectoryLength="])
            #expect(try Self.offered(["lumatrace", "replay", "--set", "nosuch.x"], in: dir) == [])
            #expect(try Self.offered(["lumatrace", "replay", ""], in: dir).filter { !$0.hasSuffix("/") } == ["clip.luma"])
            #expect(try Self.offered(["lumatrace", "verify", ""], in: dir).filter { !$0.hasSuffix("/") } == ["clip.events.jsonl"])
            #expect(try Self.offered(["lumatrace", "score", "clip.events.jsonl", "--truth", ""], in: dir).filter { !$0.hasSuffix("/") }
                    == ["clip.truth.json"])
        }
    }
}
