import Foundation

/// When a run measured and on which commit of Lumatrace: every JSON line carries it, so a table
/// made from the lines later says where its figures come from without anyone typing a date.
struct Provenance: Sendable, Equatable {
    /// The day the run started, `yyyy-MM-dd` in UTC.
    let date: String
    /// The checked-out commit's short hash, when the package is a git work tree.
    let commit: String?
    /// Whether tracked files other than Markdown differed from that commit: the figures are of
    /// uncommitted code. (Documentation does not change what is measured, and `tables` itself
    /// rewrites README.md, so a second area measured after it would otherwise always count.)
    let commitModified: Bool

    /// Today's date and the package root's current commit (`git rev-parse --short HEAD`).
    static func current() -> Provenance {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        let root = BenchSettings.packageRoot.path
        let commit = git(["-C", root, "rev-parse", "--short", "HEAD"])
        let changes = commit == nil ? nil : git(["-C", root, "status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)*.md"])
        return Provenance(date: formatter.string(from: Date()), commit: commit, commitModified: !(changes ?? "").isEmpty)
    }

    /// `date`, then `commit` and `commit_modified` when known.
    var jsonFields: [(String, JSON)] {
        var fields: [(String, JSON)] = [("date", .string(date))]
        if let commit {
            fields.append(("commit", .string(commit)))
            if commitModified { fields.append(("commit_modified", .bool(true))) }
        }
        return fields
    }

    /// The trimmed standard output of `git arguments`, or `nil` when git is missing or fails.
    private static func git(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
