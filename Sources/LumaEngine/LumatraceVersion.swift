/// Lumatrace's version: what `lumatrace --version` prints, what every log header, report and sweep
/// names as the engine that wrote it, and what the Python package's build reads as its own version.
///
/// The one place the version is written: `scripts/release X.Y.Z` sets it (and tags the release
/// `X.Y.Z`, as SwiftPM resolves it); nothing else may spell it out.
public enum LumatraceVersion {
    /// The version, `MAJOR.MINOR.PATCH`.
    public static let engine = "0.1.0"
}
