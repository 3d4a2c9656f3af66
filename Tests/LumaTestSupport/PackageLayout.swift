import Foundation

/// Where things are, seen from the tests: the package's own folders, and the shared clips beside
/// the checkout.
public enum PackageLayout {
    /// The package root (this file is `Tests/LumaTestSupport/PackageLayout.swift`).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `Recordings/`: the bundled sample recordings and their golden logs.
    public static var recordings: URL { root.appendingPathComponent("Recordings") }

    /// `Tests/Conformance/`: the corpus of recordings and logs, each with what a reader must make
    /// of it, that the Swift and Python readers both walk (a folder of it: ``ConformanceFolder``).
    public static var conformance: URL { root.appendingPathComponent("Tests/Conformance") }

    /// `../shared/data` beside the checkout (CI always has it), or `LUMATRACE_SHARED_DATA`; `nil`
    /// when neither exists.
    public static let sharedData: URL? = {
        if let folder = ProcessInfo.processInfo.environment["LUMATRACE_SHARED_DATA"] { return URL(fileURLWithPath: folder) }
        let url = root.deletingLastPathComponent().appendingPathComponent("shared/data")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// The shared data folder, or an error saying where it was looked for.
    public static func requireSharedData() throws -> URL {
        guard let sharedData else { throw SharedDataMissing() }
        return sharedData
    }

    public struct SharedDataMissing: Error, CustomStringConvertible {
        public var description: String {
            "../shared/data is not beside the checkout (\(PackageLayout.root.deletingLastPathComponent().path)); "
                + "set LUMATRACE_SHARED_DATA to the folder of clips"
        }
    }
}
