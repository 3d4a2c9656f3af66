// swift-tools-version: 6.0
//
// Lumatrace: record a fixed-camera video once into zstd-compressed luma frames, replay it through
// analyzer plugins as often as you like, and get a deterministic event log every time.
//
// Layers (ARCHITECTURE.md): LumaBase (recording time, SHA-256 and hex, fixed decimals, JSON strings,
// counted nouns) → LumaFormat (the .luma file) and LumaAnalysis (the plugin API: Analyzer, Frame, events,
// options, JSON) → Plugins/* (analyzers, which see only LumaAnalysis and LumaImaging) and LumaEngine
// (replay, event log) → LumaRegression (golden replays, diff, score, regress); LumaRecording (frame
// sources, the record loop) → LumatraceCLI → lumatrace. Beside them, LumaProcess (starting programs
// and threads), which the engine, the recorder, the command line and the external analyzer build on;
// and LumaOutput (safe output files), under the format, the engine and regression.
import PackageDescription

let package = Package(
    name: "Lumatrace",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "lumatrace", targets: ["lumatrace"]),
        .library(name: "LumaBase", targets: ["LumaBase"]),
        .library(name: "LumaProcess", targets: ["LumaProcess"]),
        .library(name: "LumaAnalysis", targets: ["LumaAnalysis"]),
        .library(name: "LumaOutput", targets: ["LumaOutput"]),
        .library(name: "LumaFormat", targets: ["LumaFormat"]),
        .library(name: "LumaEngine", targets: ["LumaEngine"]),
        .library(name: "LumaRegression", targets: ["LumaRegression"]),
        .library(name: "LumaRecording", targets: ["LumaRecording"]),
        .library(name: "LumaImaging", targets: ["LumaImaging"]),
        .library(name: "LumaSynth", targets: ["LumaSynth"]),
        .library(name: "LumaTruth", targets: ["LumaTruth"]),
        .library(name: "LumaRender", targets: ["LumaRender"]),
        .library(name: "AnalyzerHarness", targets: ["AnalyzerHarness"]),
        .library(name: "LumatraceCLI", targets: ["LumatraceCLI"]),
        .library(name: "DifferencingAnalyzer", targets: ["DifferencingAnalyzer"]),
        .library(name: "TrajectoryAnalyzer", targets: ["TrajectoryAnalyzer"]),
        .library(name: "TrackingAnalyzer", targets: ["TrackingAnalyzer"]),
        .library(name: "RectanglesAnalyzer", targets: ["RectanglesAnalyzer"]),
        .library(name: "ExternalAnalyzer", targets: ["ExternalAnalyzer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // `swift package generate-documentation`: the DocC catalogs of the libraries (a command plugin; nothing links it).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
    ],
    targets: [
        // MARK: - System libraries (Debian packages; `.ci/run` installs them)
        .systemLibrary(
            name: "CZstd", path: "Sources/CZstd", pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]),
        .systemLibrary(
            name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        // OpenSSL 3's libcrypto, for SHA-256 only (LumaBase's SHA256Hasher): the system's, where
        // swift-crypto compiled BoringSSL's 359 C files into every fresh build.
        .systemLibrary(
            name: "CLibcrypto", path: "Sources/CLibcrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),

        // libpng + libjpeg behind plain C calls that return status codes: all setjmp/longjmp stays in
        // C (glue.c). Headers come from /usr/include (Debian libpng-dev, libjpeg62-turbo-dev).
        .target(
            name: "CImageGlue", path: "Sources/CImageGlue",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]),

        // KissFFT (BSD): the tracking analyzer's correlation filters work in the Fourier domain.
        .systemLibrary(
            name: "CKissFFT", path: "Sources/CKissFFT",
            providers: [.apt(["libkissfft-dev"])]),

        // The codec's two inner loops (mask + non-zero bytes ⇄ frame), in C for SSSE3's byte shuffle.
        .target(name: "CResidualKernels", path: "Sources/CResidualKernels"),
        // What LumaProcess needs of glibc that Swift does not see (posix_spawn's descriptor-closing and
        // folder-changing actions, pipe2, thread names: GNU extensions; LumaBase: renameat2), and the reaper a program can run
        // under (a child subreaper, so nothing it starts outlives it), which must run C after fork.
        .target(name: "CSystemCalls", path: "Sources/CSystemCalls"),
        // Recordings over HTTP(S): range requests through libcurl (Debian libcurl4-openssl-dev), whose
        // variadic setopt Swift cannot call, so each request is one C call.
        .target(
            name: "CHTTPRange", path: "Sources/CHTTPRange",
            linkerSettings: [.linkedLibrary("curl")]),

        // MARK: - Core
        // Recording time (Timestamp), digests (SHA-256, through libcrypto, and hex), fixed decimals and JSON
        // strings as text: what the file format, the plugin API and the truth files share.
        // CSystemCalls for renameat2's exchange of two names, which Swift's Glibc does not declare.
        .target(name: "LumaBase", dependencies: ["CLibcrypto", "CSystemCalls"], path: "Sources/LumaBase"),
        // Starting programs (pipes, files, process groups, a reaper; finding a tool on PATH) and worker
        // threads: the one way the recorder, render, the engine and the external analyzer do either.
        // LumaBase for SystemCallError (a failed call and its errno) and the file-system layer.
        .target(name: "LumaProcess", dependencies: ["LumaBase", "CSystemCalls"], path: "Sources/LumaProcess"),
        // The plugin API: everything an analyzer author needs, and nothing of the file format.
        .target(
            name: "LumaAnalysis",
            dependencies: ["LumaBase"],
            path: "Sources/LumaAnalysis"),
        // Safe output files: written beside their target and renamed over it, refused when the target
        // exists without --force, folders replaced whole, locks, the kinds of result a path may hold.
        // Below the format, the engine and regression, which all write files so.
        .target(name: "LumaOutput", dependencies: ["LumaBase"], path: "Sources/LumaOutput"),
        .target(
            name: "LumaFormat",
            dependencies: ["LumaBase", "LumaOutput", "CZstd", "CZlib", "CImageGlue", "CResidualKernels", "CHTTPRange"],
            path: "Sources/LumaFormat"),
        .target(name: "LumaImaging", dependencies: ["LumaAnalysis", "CKissFFT"], path: "Sources/LumaImaging"),
        // Ground truth: the truth file format and importers from OTB, VOT and TrackNet labels.
        .target(name: "LumaTruth", dependencies: ["LumaBase", "LumaAnalysis"], path: "Sources/LumaTruth"),
        // Deterministic synthetic fixed-camera scenes with exact ground truth: the analyzers' fixtures.
        // LumaImaging for PortableMath: the scenes and the analyzers share one set of libm-free functions.
        .target(name: "LumaSynth", dependencies: ["LumaBase", "LumaAnalysis", "LumaTruth", "LumaImaging"], path: "Sources/LumaSynth"),
        .target(
            name: "LumaEngine",
            dependencies: ["LumaBase", "LumaAnalysis", "LumaOutput", "LumaFormat", "LumaProcess"],
            path: "Sources/LumaEngine"),
        // Regression: golden replays, pipeline files, diff, score and the regress runner, with their
        // text and JSON reports; for the CLI, the benchmarks and any Swift program.
        .target(
            name: "LumaRegression",
            dependencies: ["LumaBase", "LumaAnalysis", "LumaOutput", "LumaFormat", "LumaEngine", "LumaTruth"],
            path: "Sources/LumaRegression"),

        // Recording: frame sources (video through ffmpeg, Y4M, image folders) and the record loop.
        .target(name: "LumaRecording", dependencies: ["LumaBase", "LumaAnalysis", "LumaOutput", "LumaFormat", "LumaEngine", "LumaProcess"], path: "Sources/LumaRecording"),
        // The test bench for analyzer plugins: replays frames through one analyzer, checks its conformance.
        .target(name: "AnalyzerHarness", dependencies: ["LumaBase", "LumaAnalysis", "LumaFormat", "LumaEngine"], path: "Sources/AnalyzerHarness"),
        // Drawing event logs over frames (render) and the HTML report page: RGB pictures, overlays, PNG through
        // LumaFormat (libpng's one owner), GIF and MP4 through ffmpeg (LumaProcess).
        .target(name: "LumaRender", dependencies: ["LumaBase", "LumaAnalysis", "LumaFormat", "LumaImaging", "LumaEngine", "LumaRegression", "LumaTruth", "LumaProcess"],
                path: "Sources/LumaRender"),

        // MARK: - Analyzer plugins: ordinary targets that see only the plugin API and LumaImaging
        analyzerPlugin("DifferencingAnalyzer", folder: "Differencing"),
        analyzerPlugin("TrajectoryAnalyzer", folder: "Trajectory"),
        analyzerPlugin("TrackingAnalyzer", folder: "Tracking"),
        analyzerPlugin("RectanglesAnalyzer", folder: "Rectangles"),
        // Analyzers in any language: a subprocess speaking a small protocol over stdin/stdout.
        // The one plugin that starts programs: it also sees LumaProcess, and runs them under its reaper.
        .target(name: "ExternalAnalyzer", dependencies: ["LumaAnalysis", "LumaProcess"], path: "Plugins/External"),

        // MARK: - Command line
        .target(
            name: "LumatraceCLI",
            dependencies: [
                "LumaBase", "LumaAnalysis", "LumaOutput", "LumaFormat", "LumaEngine", "LumaRegression", "LumaRecording", "LumaProcess", "LumaSynth", "LumaTruth", "LumaRender", "DifferencingAnalyzer", "TrajectoryAnalyzer", "TrackingAnalyzer", "RectanglesAnalyzer", "ExternalAnalyzer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/LumatraceCLI"),
        .executableTarget(name: "lumatrace", dependencies: ["LumatraceCLI"], path: "Sources/lumatrace"),

        // MARK: - Tests
        // What every test target shares: scratch files, seeded randomness, the programs tests
        // drive (and how to install them), where the package and the shared clips are.
        .target(
            name: "LumaTestSupport",
            dependencies: ["LumaBase", "LumaAnalysis", "LumaFormat", "LumaRecording", "LumaProcess"],
            path: "Tests/LumaTestSupport"),
        .testTarget(
            name: "LumaFormatTests", dependencies: ["LumaTestSupport", "LumaBase", "LumaOutput", "LumaFormat"], path: "Tests/LumaFormatTests",
            // JPEGs ffmpeg cannot write, read from the source tree.
            exclude: ["ImageFiles/JPEGs"]),
        .testTarget(
            name: "AnalyzerHarnessTests",
            dependencies: ["LumaTestSupport", "LumaAnalysis", "LumaEngine", "LumaFormat", "AnalyzerHarness", "DifferencingAnalyzer", "TrajectoryAnalyzer", "TrackingAnalyzer",
                           "RectanglesAnalyzer", "ExternalAnalyzer"],
            path: "Tests/AnalyzerHarnessTests"),
        // The system layer (files, paths, names as bytes), and the test that keeps every system call in it.
        .testTarget(name: "LumaBaseTests", dependencies: ["LumaTestSupport", "LumaBase"], path: "Tests/LumaBaseTests"),
        .testTarget(name: "LumaProcessTests", dependencies: ["LumaTestSupport", "LumaBase", "LumaProcess"], path: "Tests/LumaProcessTests"),
        .testTarget(name: "LumaTruthTests", dependencies: ["LumaTestSupport", "LumaTruth"], path: "Tests/LumaTruthTests"),
        .testTarget(name: "LumaSynthTests", dependencies: ["LumaTestSupport", "LumaAnalysis", "LumaTruth", "LumaSynth"], path: "Tests/LumaSynthTests"),
        .testTarget(name: "LumaImagingTests", dependencies: ["LumaTestSupport", "LumaImaging"], path: "Tests/LumaImagingTests"),
        .testTarget(
            name: "LumaEngineTests",
            dependencies: ["LumaTestSupport", "LumaBase", "LumaAnalysis", "LumaFormat", "LumaEngine", "LumaRegression", "LumaTruth", "DifferencingAnalyzer"],
            path: "Tests/LumaEngineTests"),
        .testTarget(
            name: "TrajectoryTests",
            dependencies: ["LumaTestSupport", "LumaBase", "LumaAnalysis", "AnalyzerHarness", "TrajectoryAnalyzer", "LumaEngine", "LumaRegression",
                           "LumaImaging", "LumaSynth", "LumaTruth"],
            path: "Tests/TrajectoryTests",
            // Ball truth for the real clips, read from the source tree by the quality measurement.
            exclude: ["RealTruth"]),
        .testTarget(
            name: "TrackingTests",
            dependencies: ["LumaTestSupport", "LumaAnalysis", "AnalyzerHarness", "TrackingAnalyzer", "RectanglesAnalyzer", "LumaEngine", "LumaRegression",
                           "LumaSynth", "LumaFormat", "LumaTruth"],
            path: "Tests/TrackingTests"),
        .testTarget(
            name: "LumatraceCLITests",
            // The analyzers too: `lumatrace analyzers` is checked against their option declarations.
            dependencies: ["LumaTestSupport", "lumatrace", "LumaAnalysis", "LumaBase", "LumaOutput", "LumaFormat", "LumaEngine", "LumaRecording", "LumaRegression", "LumaRender", "LumaTruth",
                           "DifferencingAnalyzer", "TrajectoryAnalyzer", "TrackingAnalyzer", "RectanglesAnalyzer", "ExternalAnalyzer"],
            path: "Tests/LumatraceCLITests"),
    ],
    swiftLanguageModes: [.v6]
)

/// An analyzer plugin: `Plugins/FOLDER`, built on the plugin API (`LumaAnalysis`) and, unless
/// `imaging` is false, the vision kernels (`LumaImaging`), and nothing else. This is the import
/// rule of ARCHITECTURE.md, written once: a plugin cannot name a recording writer, zstd or a truth
/// importer, because the build does not let it see them.
func analyzerPlugin(_ name: String, folder: String, imaging: Bool = true) -> Target {
    .target(name: name, dependencies: imaging ? ["LumaAnalysis", "LumaImaging"] : ["LumaAnalysis"], path: "Plugins/" + folder)
}

// No target carries unsafe flags: SwiftPM refuses them in a package depended on by version, and
// plugin authors depend on Lumatrace so. The test suite is built optimized by its command instead
// (scripts/test: `swift test -Xswiftc -O`), which the per-pixel code needs to run at speed in tests.
