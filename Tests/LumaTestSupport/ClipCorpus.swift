import Foundation
import Testing

/// The corpus of real clips that the recording, tracking, rectangle and trajectory quality tests
/// read: `../shared/data` beside the checkout, or the folder `LUMATRACE_SHARED_DATA` names.
///
/// A clone without the corpus still passes: every test that reads it carries ``Testing/Trait/clipCorpus``
/// and is reported as skipped, with the way to get the clips (`scripts/get-clips`). Where the corpus
/// must be there (CI sets `LUMATRACE_REQUIRE_CLIPS=1`), those tests run anyway and fail, naming
/// the folder they looked for, so a missing corpus can never pass unnoticed.
public enum ClipCorpus {
    /// Why a test that needs the corpus was skipped, and how to get it. `scripts/test` counts the
    /// skips by this text.
    public static let skipReason = "needs the clip corpus (../shared/data): scripts/get-clips fetches it, or set LUMATRACE_SHARED_DATA"

    /// The corpus folder, or `nil` when there is none: `LUMATRACE_SHARED_DATA` when it is set (an
    /// empty value means "no corpus", to try a clone without it), else `../shared/data` beside the
    /// checkout if it exists.
    public static let folder: URL? = {
        if let named = ProcessInfo.processInfo.environment["LUMATRACE_SHARED_DATA"] {
            return named.isEmpty ? nil : URL(fileURLWithPath: named)
        }
        let beside = PackageLayout.root.deletingLastPathComponent().appendingPathComponent("shared/data")
        return FileManager.default.fileExists(atPath: beside.path) ? beside : nil
    }()

    /// Whether the corpus must be there (`LUMATRACE_REQUIRE_CLIPS=1`): then the tests that need it
    /// run, and fail, instead of being skipped.
    public static let isRequired = ProcessInfo.processInfo.environment["LUMATRACE_REQUIRE_CLIPS"] == "1"

    /// The corpus folder, or an error saying where it was looked for and how to get it.
    public static func require() throws -> URL {
        guard let folder else { throw Missing() }
        guard FileManager.default.fileExists(atPath: folder.path) else { throw Missing(named: folder.path) }
        return folder
    }

    /// The corpus is not there.
    public struct Missing: Error, CustomStringConvertible {
        /// The folder `LUMATRACE_SHARED_DATA` named, when that is the one missing.
        public var named: String? = nil

        public var description: String {
            let looked = named.map { "LUMATRACE_SHARED_DATA names \($0), which does not exist" }
                ?? "\(PackageLayout.root.deletingLastPathComponent().appendingPathComponent("shared/data").path) does not exist"
            return "the clip corpus is missing: \(looked); scripts/get-clips fetches it from its public sources"
                + (ClipCorpus.isRequired ? " (LUMATRACE_REQUIRE_CLIPS=1 makes it required)" : "")
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// A test that reads the clip corpus (``ClipCorpus``): skipped, with ``ClipCorpus/skipReason``,
    /// when the corpus is absent and not required.
    public static var clipCorpus: Self {
        .enabled(if: ClipCorpus.folder != nil || ClipCorpus.isRequired, Comment(rawValue: ClipCorpus.skipReason))
    }
}
