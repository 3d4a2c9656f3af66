import ArgumentParser
import Foundation
import LumaEngine
import LumaFormat

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-run the replay a log's header describes and require a byte-identical log.",
        discussion: """
            The recording is found by the file name in the header, next to the log, unless given.
              lumatrace verify Recordings/balls.events.jsonl
              lumatrace verify old.events.jsonl --recording elsewhere/clip.luma
            Exit status: 0 identical, 1 different (the first differing line is printed), 2 error.
            """)

    @Argument(help: "The event log to verify.")
    var log: String

    @Option(help: "The recording, when it is not next to the log under its header name.")
    var recording: String?

    func run() throws {
        do {
            try verify()
        } catch let e as ExitCode {
            throw e
        } catch {
            FileHandle.standardError.write(Data("lumatrace: error: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }

    private func verify() throws {
        let golden = try EventLog.read(log)
        let header = golden.header
        let path = recording ?? URL(fileURLWithPath: log).deletingLastPathComponent().appendingPathComponent(header.recordingFile).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIError("\(log): its recording \(header.recordingFile) is not next to it (looked for \(path)); pass --recording")
        }
        let reader = try RecordingReader(path: path)
        let digest = try reader.framesDigest().hexString
        guard digest == header.recordingDigest else {
            throw CLIError("\(path) is not the recording this log was made from (frames digest \(digest.prefix(12))…, the log says \(header.recordingDigest.prefix(12))…)")
        }
        let registry = Lumatrace.registry
        var setups: [AnalyzerSetup] = []
        for a in header.analyzers {
            let descriptor = try registry.descriptor(named: a.name)
            if descriptor.version != a.version {
                print("note: analyzer \(a.name) is version \(descriptor.version), the log was written by version \(a.version); differences are expected")
            }
            var s = a
            s.version = descriptor.version
            try s.validate(with: descriptor)
            setups.append(s)
        }
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("lumatrace-verify-\(getpid()).events.jsonl").path
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let options = ReplayOptions(frames: header.firstFrame...header.lastFrame, skipDamaged: header.skipDamaged,
                                    jobs: min(ProcessInfo.processInfo.activeProcessorCount, 8), recordingName: header.recordingFile)
        do {
            _ = try LumaEngine.Replay.run(reader, setups: setups, registry: registry, options: options, logPath: temporary)
        } catch {
            // A golden log may itself record an analyzer failure: then the re-run must fail the same way,
            // which the line comparison below checks. Any other failure is an error.
            guard case .analyzerFailed = error, golden.footer?["end"]?["failure"] != nil else { throw error }
        }
        let old = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let new = try String(contentsOfFile: temporary, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(old.count, new.count) {
            let a = i < old.count ? String(old[i]) : "(end of file)"
            let b = i < new.count ? String(new[i]) : "(end of file)"
            if a != b {
                print("\(log): differs at line \(i + 1)")
                print("  golden: \(a.prefix(300))")
                print("  now:    \(b.prefix(300))")
                throw ExitCode(1)
            }
        }
        print("\(log): verified, \(golden.events.count) events byte-identical")
    }
}
