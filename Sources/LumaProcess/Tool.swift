#if canImport(Glibc)
import Glibc
#endif
import LumaBase

/// A program found by name on `PATH`, as a shell finds it (ffmpeg, ffprobe), and what to tell a user
/// who does not have it.
///
///     let ffmpeg = Tool("ffmpeg", purpose: "to read video files", install: "`sudo apt-get install ffmpeg` (Debian/Ubuntu)")
///     let path = try ffmpeg.path()   // "/usr/bin/ffmpeg", or ProgramError.toolMissing(ffmpeg)
///
/// This is the one place Lumatrace searches `PATH`; ``Program`` looks up an executable given by
/// name here too.
public struct Tool: Equatable, Sendable {
    /// The program's name, as typed in a shell.
    public var name: String
    /// What it is needed for, finishing "it is needed …" (`to read video files`).
    public var purpose: String?
    /// How to install it, finishing "Install it with …" (e.g. "`sudo apt-get install ffmpeg` (Debian/Ubuntu)").
    public var install: String?
    /// What a user can do without it, finishing the message (`or convert the video to Y4M elsewhere`).
    public var otherwise: String?

    public init(_ name: String, purpose: String? = nil, install: String? = nil, otherwise: String? = nil) {
        self.name = name
        self.purpose = purpose
        self.install = install
        self.otherwise = otherwise
    }

    /// The full path of the tool: the first executable file of its name in the folders of `PATH`.
    /// Throws ``ProgramError/toolMissing(_:)``, whose message says how to install it, when there is none.
    public func path() throws(ProgramError) -> String {
        guard let found = Self.find(name) else { throw .toolMissing(self) }
        return found
    }

    /// The full path of the first executable regular file named `name` in the folders of `searchPath`
    /// (colon-separated; `nil`: this process's `PATH`, or `/usr/bin:/bin` without one), then in
    /// `otherFolders`; `nil` when there is none. Empty entries of the path are skipped: a shell
    /// would read them as the current folder, which a program found by name should not come from.
    public static func find(_ name: String, searching searchPath: String? = nil, thenIn otherFolders: [String] = []) -> String? {
        guard !name.isEmpty, !name.contains("/") else { return nil }
        let path = searchPath ?? getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        let folders = path.split(separator: ":").map(String.init) + otherFolders
        return folders.lazy.map { $0.hasSuffix("/") ? $0 + name : $0 + "/" + name }.first(where: isExecutableFile)
    }

    /// Whether `path` is a regular file (after symbolic links) this process may execute.
    static func isExecutableFile(_ path: String) -> Bool { SystemPath.isExecutableFile(path) }

    /// "ffmpeg is not installed, and it is needed to read video files. Install it with …, or …".
    var missingDescription: String {
        var text = "\(name) is not installed"
        text += purpose.map { ", and it is needed \($0)" } ?? " (no folder of PATH holds it)"
        if let install { text += ". Install it with \(install)" }
        if let otherwise { text += (install == nil ? "; " : ", ") + otherwise }
        return text
    }
}
