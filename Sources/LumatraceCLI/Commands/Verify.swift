import ArgumentParser
import Foundation
import LumaAnalysis
import LumaBase
import LumaEngine
import LumaFormat
import LumaRegression

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-run the replay a log's header describes and require a byte-identical log.",
        discussion: """
            The recording is found by the file name in the header, next to the log, unless given.
              lumatrace verify Recordings/balls.events.jsonl
              lumatrace verify old.events.jsonl --recording elsewhere/clip.luma
            Exit status: 0 identical, 1 different (the first differing line is printed) or incomplete
            (the log records a failed replay), 2 error (a log with no footer cannot be verified).
            """)

    @Argument(help: "The event log to verify.", completion: Completions.eventLog)
    var log: String

    @Option(help: "The recording (a path or an http(s):// URL), when it is not next to the log under its header name.")
    var recording: RecordingLocation?

    @Flag(help: ArgumentHelp(stringLiteral: FlagHints.allowExternalHelp))
    var allowExternal = false

    func run() throws {
        try reportingErrors(in: .verify) { try verify() }
    }

    private func verify() throws {
        let golden = try EventLog.read(log)
        if golden.footer == nil, let missing = golden.incompleteness {
            throw CLIError("\(missing); there is no complete log to verify")
        }
        let registry = Lumatrace.registry
        let replay = try GoldenReplay(golden: golden, recording: recording, registry: registry, allowPrograms: allowExternal)
        for note in replay.versionNotes { print("note: \(note)") }
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("lumatrace-verify-\(getpid())-\(UUID().uuidString.prefix(8)).events.jsonl").path
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let progress = ProgressBar("verifying")
        defer { progress.finish() }
        try replay.run(to: temporary, jobs: JobsOption.defaultCount, registry: registry, memory: MemoryPool(memoryBudget()),
                       progress: { progress.update($0, $1) }, warning: { warn("warning: " + $0) })
        guard let goldenBytes = SystemPath.contents(of: log), let newBytes = SystemPath.contents(of: temporary) else {
            throw CLIError("\(log): cannot read it again to compare")
        }
        let old = String(decoding: goldenBytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let new = String(decoding: newBytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(old.count, new.count) {
            let a = i < old.count ? String(old[i]) : "(end of file)"
            let b = i < new.count ? String(new[i]) : "(end of file)"
            if a != b {
                print("\(log): differs at line \(i + 1)")
                // A plugin whose program files changed explains a different header, and likely the events.
                if let now = try? EventLog.read(temporary) {
                    for (x, y) in zip(golden.header.analyzers, now.header.analyzers) {
                        for change in LogDiff.programChanges(x, y) { print("  the plugin changed: \(change)") }
                    }
                }
                print("  golden: \(a.prefix(300))")
                print("  now:    \(b.prefix(300))")
                throw ExitCode(1)
            }
        }
        if let missing = golden.incompleteness {
            // The replay fails the same way again, byte for byte; but a failed replay is not a result.
            print("\(log): not verified: \(missing); the replay fails the same way again (\(Plural.count(golden.events.count, "event")) byte-identical)")
            throw ExitCode(1)
        }
        print("\(log): verified, \(Plural.count(golden.events.count, "event")) byte-identical")
    }
}
