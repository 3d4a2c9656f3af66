import Foundation

/// A fresh, empty folder for `body`, removed with everything in it when `body` returns or throws:
/// the only way a test gets a scratch folder, so its clean-up cannot be forgotten.
///
/// ```swift
/// try withScratchFolder("cli") { dir in
///     let r = try CLI.run(["record", "in.y4m", "-o", "r.luma"], cwd: dir)
///     #expect(r.status == 0, "\(r.stderr)")
/// }
/// ```
///
/// A closure rather than an object that removes the folder when released: Swift may release an
/// object after its last use, before the end of the scope, which would remove the folder under a
/// test still writing into it by path.
///
/// `label` says what the folder is for (it shows in the name, for debugging).
public func withScratchFolder<T>(_ label: String = "test", _ body: (String) throws -> T) rethrows -> T {
    let folder = Scratch.folder(label)
    defer { Scratch.remove(folder) }
    return try body(folder)
}

/// ``withScratchFolder(_:_:)`` for a body that awaits.
public func withScratchFolder<T>(_ label: String = "test", _ body: (String) async throws -> T) async rethrows -> T {
    let folder = Scratch.folder(label)
    defer { Scratch.remove(folder) }
    return try await body(folder)
}

/// A scratch folder that a suite's instance owns, for suites whose every test works in a fresh
/// folder: `let scratch = ScratchFolder("output")` as a stored property. The test library makes an
/// instance of the suite for each test and keeps it for the test's duration; the folder is removed
/// when the instance goes. Inside one test's body, `withScratchFolder(_:_:)` says the same more
/// plainly.
public final class ScratchFolder: Sendable {
    /// The folder, fresh and empty.
    public let path: String

    public init(_ label: String = "test") { path = Scratch.folder(label) }

    deinit { Scratch.remove(path) }
}

/// Temporary files and folders for tests: each under the system's temporary folder, named for the
/// test process and a fresh suffix, so tests running at the same time never share one.
public enum Scratch {
    /// A fresh, empty folder that nothing removes: for ``withScratchFolder(_:_:)`` and the support
    /// types that own theirs (``WebServer``), not for tests.
    static func folder(_ label: String) -> String {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("lumatrace-\(label)-\(getpid())-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// Removes a scratch folder and everything in it.
    static func remove(_ folder: String) {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A path for a new file ending in `name`, in this process's shared scratch folder, which is
    /// removed when the test process exits. The file does not exist yet.
    public static func path(_ name: String) -> String {
        "\(processFolder)/\(UUID().uuidString.prefix(8))-\(name)"
    }

    private static let processFolder: String = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lumatrace-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { Scratch.remove(FileManager.default.temporaryDirectory.appendingPathComponent("lumatrace-tests-\(getpid())").path) }
        return url.path
    }()
}
