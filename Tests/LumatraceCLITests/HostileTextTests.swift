import Foundation
import LumaTestSupport
import Testing

/// Text that reaches a terminal from files a user did not write — an analyzer's words in a log, a
/// golden's file name — is shown escaped, and one odd golden never stops a run over the others.
@Suite("Hostile text in logs and names: escaped on a terminal, never the end of a run")
struct HostileTextTests {
    static let tossLog = PackageLayout.recordings.appendingPathComponent("toss-real.events.jsonl").path

    /// The toss golden with its trajectory's end reason replaced by `reason` (JSON text), the
    /// footer's digest made again so the log is valid: what a hostile plugin could write.
    static func log(endReason reason: String, to path: String) throws {
        var lines = try HostileInput.tossLines()
        let i = try #require(lines.firstIndex { $0.contains("\"kind\":\"trajectory.end\"") && $0.contains("\"reason\":\"exit\"") })
        lines[i] = lines[i].replacingOccurrences(of: "\"reason\":\"exit\"", with: "\"reason\":\"\(reason)\"")
        let events = lines[1..<(lines.count - 1)]
        let digest = sha256Hex(Array(events.map { $0 + "\n" }.joined().utf8))
        let footer = try #require(lines.last?.range(of: "\"sha256\":\"")).upperBound
        lines[lines.count - 1].replaceSubrange(footer..<lines[lines.count - 1].index(footer, offsetBy: 64), with: digest)
        _ = try HostileInput.write(lines, to: path)
    }

    @Test("an analyzer's words with terminal escapes and NUL are printed escaped by diff and regress")
    func escapesInLogs() throws {
        try withScratchFolder("text") { dir in
            try FileManager.default.createDirectory(atPath: dir + "/corpus", withIntermediateDirectories: false)
            try FileManager.default.copyItem(atPath: PackageLayout.recordings.appendingPathComponent("toss-real.luma").path, toPath: dir + "/corpus/toss-real.luma")
            try Self.log(endReason: "exit\\u001b]0;PWNED\\u0007\\u001b[31m\\u0000", to: dir + "/corpus/toss-real.events.jsonl")
            let verified = try CLI.run(["verify", dir + "/corpus/toss-real.events.jsonl"])
            #expect(verified.status == 1, "the golden's reason differs from what the analyzer says: \(verified.stdout)\(verified.stderr)")
            for arguments in [["diff", Self.tossLog, dir + "/corpus/toss-real.events.jsonl"], ["regress", dir + "/corpus"]] {
                let r = try CLI.run(arguments)
                #expect(r.status == 1, "\(arguments): \(r.stdout)\(r.stderr)")
                let printed = r.stdout + r.stderr
                #expect(!printed.contains("\u{1B}") && !printed.contains("\u{7}") && !printed.contains("\u{0}"), "\(arguments): \(printed)")
                #expect(printed.contains("exit\\u{1B}]0;PWNED\\u{7}\\u{1B}[31m\\u{0}"), "\(arguments): \(printed)")
            }
        }
    }

    @Test("terminal escapes and NUL from an analyzer's words and a recording's name reach report's HTML and sweep's txt, csv and html only escaped")
    func escapesInFiles() throws {
        try withScratchFolder("text") { dir in
            try Self.log(endReason: "exit\\u001b]0;PWNED\\u0007\\u001b[31m\\u0000\\u009b", to: dir + "/hostile.events.jsonl")
            let toss = PackageLayout.recordings.appendingPathComponent("toss-real").path
            let report = try CLI.run(["report", toss + ".luma", "--events", dir + "/hostile.events.jsonl", "-o", dir + "/report.html"])
            #expect(report.status == 0, "\(report.stderr)")
            let corpus = dir + "/corpus", name = "esc\u{1B}]0;PWN\u{7}\u{1B}[31mRED"
            try FileManager.default.createDirectory(atPath: corpus, withIntermediateDirectories: false)
            for suffix in [".luma", ".truth.json"] { try FileManager.default.copyItem(atPath: toss + suffix, toPath: "\(corpus)/\(name)\(suffix)") }
            let sweep = try CLI.run(["sweep", corpus, "--grid", "trajectory.trajectoryLength=8,15", "-o", dir + "/out"])
            #expect(sweep.status == 0, "\(sweep.stderr)")
            for file in ["report.html", "out/sweep.txt", "out/sweep.csv", "out/sweep.html"] {
                let bytes = try #require(FileManager.default.contents(atPath: "\(dir)/\(file)"), "\(file) was not written")
                let text = String(decoding: bytes, as: UTF8.self)
                let raw = text.unicodeScalars.filter { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t" }
                #expect(raw.isEmpty, "\(file) holds raw control characters \(raw.map { String($0.value, radix: 16) })")
                #expect(text.contains(file == "report.html" ? "exit\\u{1B}]0;PWNED\\u{7}\\u{1B}[31m\\u{0}\\u{9B}" : "esc\\u{1B}]0;PWN\\u{7}\\u{1B}[31mRED"),
                        "\(file) does not show the escapes")
            }
        }
    }

    @Test("regress reads a golden whose file name is not UTF-8 beside the others, and reports them all")
    func goldenNamedByBytes() throws {
        try withScratchFolder("text") { dir in
            let recordings = PackageLayout.recordings.path
            let r = try ProgramRun.run("/bin/sh", ["-c", """
                set -e; mkdir c; cp '\(recordings)'/toss-real.luma '\(recordings)'/toss-real.events.jsonl '\(recordings)'/balls-synth.luma '\(recordings)'/balls-synth.events.jsonl c/
                cp c/toss-real.events.jsonl "c/bad$(printf '\\377\\376').events.jsonl"
                '\(CLI.binary)' regress c --jobs 1 --junit r.xml
                """], cwd: dir)
            #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
            #expect(r.stdout.contains("bad\\xFF\\xFE.events.jsonl"), "\(r.stdout)")
            #expect(r.stdout.contains("3 recordings: 3 unchanged"), "\(r.stdout)")
            let junit = try String(contentsOfFile: dir + "/r.xml", encoding: .utf8)
            #expect(junit.contains("tests=\"3\""), "\(junit)")
            // The report names it as the table does, by its bytes.
            #expect(junit.contains("bad\\xFF\\xFE.events.jsonl") && !junit.unicodeScalars.contains { (0xF780...0xF7FF).contains($0.value) }, "\(junit)")
            // The temporary new log of each golden is gone, the odd name's included.
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/c").count == 5)
        }
    }
}
