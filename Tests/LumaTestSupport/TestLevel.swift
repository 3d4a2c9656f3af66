import Foundation
import Testing

/// Which tests a run wants: all of them (`scripts/test`), or the fast unit set (`scripts/test
/// --fast`, which sets `LUMATRACE_TEST_FAST=1`): the libraries' own tests, with no clip corpus, no
/// `.venv` and no external program (ffmpeg, nginx, Python, Slurm, Chromium, the built binary).
///
/// In the fast set every ``ExternalTool`` reads as not installed, so a test gated on one
/// (`.enabled(if: ExternalTool.ffmpeg.isInstalled, …)`) is a reported skip; a test that starts
/// programs in another way carries ``Testing/Trait/externalPrograms``.
public enum TestLevel {
    /// Whether this is the fast unit set.
    public static let isFast = ProcessInfo.processInfo.environment["LUMATRACE_TEST_FAST"] == "1"
}

extension Trait where Self == ConditionTrait {
    /// A test that runs external programs: skipped in the fast unit set (``TestLevel``).
    public static var externalPrograms: Self {
        .enabled(if: !TestLevel.isFast, "runs external programs: not part of scripts/test --fast")
    }
}
