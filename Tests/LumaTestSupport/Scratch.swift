import Foundation

/// Temporary files and folders for tests: each under the system's temporary folder, named for the
/// test process and a fresh suffix, so tests running at the same time never share one.
public enum Scratch {
    /// A fresh, empty folder; `label` says what it is for (it shows in the name, for debugging).
    public static func folder(_ label: String = "test") -> String {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("lumatrace-\(label)-\(getpid())-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// A path for a new file ending in `name`, in this process's shared scratch folder. The file
    /// does not exist yet.
    public static func path(_ name: String) -> String {
        "\(processFolder)/\(UUID().uuidString.prefix(8))-\(name)"
    }

    private static let processFolder: String = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lumatrace-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }()
}
