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
}
